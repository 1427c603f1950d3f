//! What the environment says about colour in `--color auto`, by the
//! conventions other tools follow: `NO_COLOR` (no-color.org) turns it off,
//! `CLICOLOR_FORCE` (bixense.com/clicolors) turns it on even when piped,
//! `CLICOLOR=0` and `TERM=dumb` turn it off on a terminal.

/// The variables [`auto_color`] reads, taken from the process by [`Env::current`].
#[derive(Debug, Default, Clone)]
pub struct Env {
    /// `NO_COLOR`.
    pub no_color: Option<String>,
    /// `CLICOLOR_FORCE`.
    pub clicolor_force: Option<String>,
    /// `CLICOLOR`.
    pub clicolor: Option<String>,
    /// `TERM`.
    pub term: Option<String>,
}

impl Env {
    /// This process's environment.
    pub fn current() -> Env {
        let var = |name: &str| std::env::var(name).ok();
        Env {
            no_color: var("NO_COLOR"),
            clicolor_force: var("CLICOLOR_FORCE"),
            clicolor: var("CLICOLOR"),
            term: var("TERM"),
        }
    }
}

/// Whether `--color auto` colours output going to a terminal or not
/// (`to_terminal`). A set but empty variable counts as unset, and
/// `CLICOLOR_FORCE=0` as unset, as the conventions say.
pub fn auto_color(to_terminal: bool, env: &Env) -> bool {
    let set = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.is_empty());
    if set(&env.no_color) {
        return false;
    }
    if set(&env.clicolor_force) && env.clicolor_force.as_deref() != Some("0") {
        return true;
    }
    to_terminal && env.clicolor.as_deref() != Some("0") && env.term.as_deref() != Some("dumb")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Env {
        let get = |name: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        };
        Env {
            no_color: get("NO_COLOR"),
            clicolor_force: get("CLICOLOR_FORCE"),
            clicolor: get("CLICOLOR"),
            term: get("TERM"),
        }
    }

    #[test]
    fn the_conventions_in_their_order() {
        assert!(auto_color(true, &env(&[("TERM", "xterm")])));
        assert!(!auto_color(false, &env(&[])));
        assert!(auto_color(false, &env(&[("CLICOLOR_FORCE", "1")])));
        assert!(!auto_color(false, &env(&[("CLICOLOR_FORCE", "0")])));
        assert!(!auto_color(
            false,
            &env(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")])
        ));
        assert!(auto_color(true, &env(&[("NO_COLOR", "")])));
        assert!(!auto_color(true, &env(&[("TERM", "dumb")])));
        assert!(!auto_color(true, &env(&[("CLICOLOR", "0")])));
        assert!(auto_color(
            true,
            &env(&[("TERM", "dumb"), ("CLICOLOR_FORCE", "1")])
        ));
    }
}
