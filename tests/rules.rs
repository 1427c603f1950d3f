//! Every rule is complete: unique code and name, all documentation
//! sections, a fixture folder with both firing and silent cases.

use std::collections::BTreeSet;
use std::path::Path;

use idem_lint::rules::ALL;

const SECTIONS: &[&str] = &[
    "What it does",
    "Why is this bad?",
    "Example",
    "Use instead",
    "Options",
    "References",
];

#[test]
fn codes_and_names_are_unique() {
    let codes: BTreeSet<_> = ALL.iter().map(|r| r.code).collect();
    let names: BTreeSet<_> = ALL.iter().map(|r| r.name).collect();
    assert_eq!(codes.len(), ALL.len(), "duplicate rule code");
    assert_eq!(names.len(), ALL.len(), "duplicate rule name");
    for rule in ALL {
        assert!(
            rule.code.starts_with("IDEM") && rule.code.len() == 7,
            "{}",
            rule.code
        );
        assert!(
            rule.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}",
            rule.name
        );
    }
}

#[test]
fn every_rule_has_every_doc_section_in_order() {
    for rule in ALL {
        let title = format!("# {} ({})", rule.name, rule.code);
        assert!(
            rule.docs.starts_with(&title),
            "{}: first line must be `{title}`",
            rule.name
        );
        let mut last = 0;
        for section in SECTIONS {
            let heading = format!("\n## {section}\n");
            let at = rule
                .docs
                .find(&heading)
                .unwrap_or_else(|| panic!("{}: missing section `## {section}`", rule.name));
            assert!(at > last, "{}: section `{section}` out of order", rule.name);
            last = at;
            let body = rule.section(section).unwrap_or_default();
            assert!(
                !body.is_empty(),
                "{}: section `{section}` is empty",
                rule.name
            );
        }
        let doc_path = Path::new("rules").join(format!("{}.md", rule.name));
        assert!(
            doc_path.is_file(),
            "{}: no {}",
            rule.name,
            doc_path.display()
        );
    }
}

#[test]
fn every_analysis_rule_has_fixtures_that_fire_and_stay_silent() {
    for rule in ALL.iter().filter(|r| r.code != "IDEM000") {
        let dir = Path::new("fixtures").join(rule.name);
        assert!(
            dir.is_dir(),
            "{}: no fixture folder {}",
            rule.name,
            dir.display()
        );
        let mut marked_lines = 0;
        let mut total_lines = 0;
        let mut stack = vec![dir.clone()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).expect("fixture dir").flatten() {
                let p = entry.path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Ok(text) = std::fs::read_to_string(&p) {
                    for line in text.lines() {
                        total_lines += 1;
                        if line.contains(&format!("~ {}", rule.code))
                            || line.contains(&format!(" {}", rule.code)) && line.contains("~")
                        {
                            marked_lines += 1;
                        }
                    }
                }
            }
        }
        assert!(
            marked_lines >= 10,
            "{}: only {marked_lines} firing markers",
            rule.name
        );
        assert!(
            total_lines > marked_lines * 3,
            "{}: fixtures need silent cases too",
            rule.name
        );
    }
}
