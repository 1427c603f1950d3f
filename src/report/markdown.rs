//! Rule documentation (Markdown) rendered as terminal text, for
//! `idem-lint explain` and the plain-text help in SARIF.
//!
//! Headings are underlined, code blocks indented by four spaces, list items
//! keep their bullets, and a link to another rule's page becomes the
//! `idem-lint explain` command that shows it. Colour is optional so the same
//! text serves terminals and files.

use owo_colors::OwoColorize;
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag, TagEnd};

use crate::rules::Rule;

/// A rule's whole documentation page with its default level under the title.
pub fn render_rule(rule: &Rule, color: bool) -> String {
    let (title, body) = rule.docs.split_once('\n').unwrap_or((rule.docs, ""));
    let mut out = render(title, color);
    out.push_str(&format!("\nDefault level: {}\n\n", rule.level));
    out.push_str(&render(body, color));
    out
}

/// Renders Markdown as terminal text.
pub fn render(markdown: &str, color: bool) -> String {
    let mut w = Writer {
        out: String::new(),
        color,
        indent: Vec::new(),
        at_line_start: true,
        lists: Vec::new(),
        heading: None,
        in_code_block: false,
        links: Vec::new(),
        emphasis: 0,
        strong: 0,
    };
    for event in Parser::new(markdown) {
        w.event(event);
    }
    let mut out = w.out.trim_end().to_string();
    out.push('\n');
    out
}

struct Writer {
    out: String,
    color: bool,
    /// Prefixes written at the start of every line (list and quote nesting).
    indent: Vec<String>,
    at_line_start: bool,
    /// For each open list: the next number, or `None` for bullets.
    lists: Vec<Option<u64>>,
    /// Text of the heading being read, and its level.
    heading: Option<(HeadingLevel, String)>,
    in_code_block: bool,
    /// Destinations of the open links.
    links: Vec<String>,
    emphasis: usize,
    strong: usize,
}

impl Writer {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => self.text(&text),
            Event::Code(code) => {
                let shown = if self.color {
                    code.cyan().to_string()
                } else {
                    format!("`{code}`")
                };
                self.inline(&shown);
            }
            Event::SoftBreak | Event::HardBreak => self.newline(),
            Event::Rule => {
                self.blank_line();
                self.inline("----");
                self.blank_line();
            }
            Event::Html(html) | Event::InlineHtml(html) => self.text(&html),
            Event::InlineMath(t) | Event::DisplayMath(t) => self.text(&t),
            Event::FootnoteReference(r) => self.inline(&format!("[{r}]")),
            Event::TaskListMarker(done) => self.inline(if done { "[x] " } else { "[ ] " }),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Heading { level, .. } => {
                self.blank_line();
                self.heading = Some((level, String::new()));
            }
            Tag::Paragraph => {
                if self.lists.is_empty() {
                    self.blank_line();
                } else {
                    self.line_break();
                }
            }
            Tag::CodeBlock(kind) => {
                self.blank_line();
                if let CodeBlockKind::Fenced(lang) = kind {
                    if !lang.is_empty() && self.color {
                        // The language is only a hint; say it quietly.
                        self.inline(&format!("    {}", lang.dimmed()));
                        self.newline();
                    }
                }
                self.in_code_block = true;
                self.indent.push("    ".to_string());
            }
            Tag::List(start) => {
                if self.lists.is_empty() {
                    self.blank_line();
                } else {
                    self.line_break();
                }
                self.lists.push(start);
            }
            Tag::Item => {
                self.line_break();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "- ".to_string(),
                };
                self.inline(&marker);
                self.indent.push(" ".repeat(marker.len()));
            }
            Tag::BlockQuote(_) => {
                self.blank_line();
                self.indent.push("> ".to_string());
            }
            Tag::Emphasis => self.emphasis += 1,
            Tag::Strong => self.strong += 1,
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                self.links.push(dest_url.to_string())
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) => {
                if let Some((level, text)) = self.heading.take() {
                    self.heading_text(level, &text);
                }
            }
            TagEnd::Paragraph => self.line_break(),
            TagEnd::CodeBlock => {
                self.in_code_block = false;
                self.indent.pop();
                self.blank_line();
            }
            TagEnd::List(_) => {
                self.lists.pop();
                self.line_break();
            }
            TagEnd::Item => {
                self.indent.pop();
                self.line_break();
            }
            TagEnd::BlockQuote(_) => {
                self.indent.pop();
                self.blank_line();
            }
            TagEnd::Emphasis => self.emphasis = self.emphasis.saturating_sub(1),
            TagEnd::Strong => self.strong = self.strong.saturating_sub(1),
            TagEnd::Link | TagEnd::Image => {
                if let Some(dest) = self.links.pop() {
                    let target = link_target(&dest);
                    self.inline(&format!(" ({target})"));
                }
            }
            _ => {}
        }
    }

    fn heading_text(&mut self, level: HeadingLevel, text: &str) {
        let underline = if level == HeadingLevel::H1 { '=' } else { '-' };
        let rule: String = std::iter::repeat_n(underline, text.chars().count()).collect();
        if self.color {
            self.inline(&text.bold().to_string());
            self.newline();
            self.inline(&rule.dimmed().to_string());
        } else {
            self.inline(text);
            self.newline();
            self.inline(&rule);
        }
        self.newline();
        self.newline();
    }

    fn text(&mut self, text: &str) {
        if let Some((_, heading)) = &mut self.heading {
            heading.push_str(text);
            return;
        }
        if self.in_code_block {
            for (i, line) in text.split('\n').enumerate() {
                if i > 0 {
                    self.newline();
                }
                if self.color {
                    self.inline(&line.green().to_string());
                } else {
                    self.inline(line);
                }
            }
            return;
        }
        let styled = if !self.color {
            text.to_string()
        } else if self.strong > 0 {
            text.bold().to_string()
        } else if self.emphasis > 0 {
            text.italic().to_string()
        } else {
            text.to_string()
        };
        self.inline(&styled);
    }

    /// Writes text on the current line, after the indentation if the line is new.
    fn inline(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if self.at_line_start {
            let prefix: String = self.indent.concat();
            self.out.push_str(&prefix);
            self.at_line_start = false;
        }
        self.out.push_str(text);
    }

    fn newline(&mut self) {
        if self.at_line_start && self.out.ends_with("\n\n") {
            return;
        }
        // A blank line inside an indented block keeps no trailing spaces.
        self.out.push('\n');
        self.at_line_start = true;
    }

    /// Ends the current line if anything is on it.
    fn line_break(&mut self) {
        if !self.at_line_start {
            self.newline();
        }
    }

    /// Ensures the next text starts after an empty line.
    fn blank_line(&mut self) {
        self.line_break();
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.newline();
        }
    }
}

/// Where a link points, for a reader without a browser: another rule's page
/// (`missing-scope-component.md`) becomes the command that shows it.
fn link_target(dest: &str) -> String {
    if !dest.contains("://") {
        if let Some(stem) = dest.strip_suffix(".md") {
            let name = stem.rsplit('/').next().unwrap_or(stem);
            if crate::rules::find(name).is_some() {
                return format!("idem-lint explain {name}");
            }
        }
    }
    dest.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_lists_code_and_links() {
        let md = "# Title (X1)\n\n## What it does\n\nChecks `a`\nand *b*.\n\n- one\n  more\n- two\n\n```rust\nfn f() {\n\n    g();\n}\n```\n\nSee [other](adhoc-key-concat.md) and [spec](https://example.com/x).\n";
        let text = render(md, false);
        assert_eq!(
            text,
            "Title (X1)\n==========\n\nWhat it does\n------------\n\nChecks `a`\nand b.\n\n- one\n  more\n- two\n\n    fn f() {\n\n        g();\n    }\n\nSee other (idem-lint explain adhoc-key-concat) and spec (https://example.com/x).\n"
        );
    }

    #[test]
    fn colour_only_when_asked() {
        let md = "## Heading\n\nText with `code`.\n";
        assert!(!render(md, false).contains('\u{1b}'));
        assert!(render(md, true).contains('\u{1b}'));
    }

    #[test]
    fn every_rule_renders_without_markdown_syntax_left() {
        for rule in crate::rules::ALL {
            let text = render_rule(rule, false);
            assert!(text.starts_with(&format!("{} ({})\n", rule.name, rule.code)));
            assert!(text.contains("What it does\n------------\n"), "{text}");
            assert!(!text.contains("```"), "fences are rendered: {text}");
            assert!(!text.contains("\n## "), "headings are rendered: {text}");
        }
    }
}
