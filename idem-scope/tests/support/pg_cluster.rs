//! A throwaway PostgreSQL 15 cluster under a temp dir, started with the
//! machine's `initdb` / `pg_ctl` and stopped when dropped (also on failure).
//!
//! PostgreSQL refuses to run as root, so as root the server commands run as
//! the `postgres` OS user through `runuser`. If no cluster can be started the
//! test fails (it never skips) and says why.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub struct Cluster {
    data: PathBuf,
    port: u16,
    as_postgres: bool,
    // Dropped after `Drop::drop` has stopped the server.
    dir: tempfile::TempDir,
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// `name` from PATH, else from Debian's PostgreSQL 15 directory; an absolute
/// path also survives `runuser`, whatever PATH it sets.
fn pg_bin(name: &str) -> String {
    let path = std::env::var("PATH").unwrap_or_default();
    let found = path
        .split(':')
        .chain(["/usr/lib/postgresql/15/bin"])
        .map(|dir| Path::new(dir).join(name))
        .find(|candidate| candidate.is_file());
    found
        .and_then(|f| f.to_str().map(str::to_owned))
        .unwrap_or_else(|| name.to_owned())
}

fn command(as_postgres: bool, cwd: &Path, program: &str, args: &[&str]) -> Command {
    let program = pg_bin(program);
    let mut cmd = if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--", &program]);
        c
    } else {
        Command::new(program)
    };
    cmd.args(args).current_dir(cwd);
    cmd
}

fn run(as_postgres: bool, cwd: &Path, program: &str, args: &[&str]) -> Output {
    command(as_postgres, cwd, program, args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `{}{program}`: {e}. This test needs the PostgreSQL 15 server binaries \
             (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/15/bin (Debian's postgresql-15){}",
                if as_postgres {
                    "runuser -u postgres -- "
                } else {
                    ""
                },
                if as_postgres {
                    ", plus `runuser` and a `postgres` OS user when run as root"
                } else {
                    ""
                },
            )
        })
}

fn check(out: Output, what: &str, log: Option<&Path>) {
    if !out.status.success() {
        let log = log
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_default();
        panic!(
            "PostgreSQL could not be started: {what} failed ({})\nstdout: {}\nstderr: {}\nserver log: {log}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
    }
}

impl Cluster {
    pub fn start() -> Cluster {
        let as_postgres = is_root();
        let dir = tempfile::Builder::new()
            .prefix("idem-scope-pg")
            .tempdir()
            .expect("create temp dir");
        if as_postgres {
            let chown = Command::new("chown")
                .arg("postgres:")
                .arg(dir.path())
                .output();
            check(
                chown.expect("run chown"),
                "chown of the temp dir to postgres",
                None,
            );
        }
        let data = dir.path().join("data");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        let cluster = Cluster {
            data,
            port,
            as_postgres,
            dir,
        };

        let data = cluster.data.to_str().expect("utf-8 temp path");
        let sockets = cluster.dir.path().to_str().expect("utf-8 temp path");
        let init = run(
            as_postgres,
            cluster.dir.path(),
            "initdb",
            &[
                "-D",
                data,
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync",
            ],
        );
        check(init, "initdb", None);
        let log = cluster.dir.path().join("server.log");
        let opts = format!("-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off");
        let start = run(
            as_postgres,
            cluster.dir.path(),
            "pg_ctl",
            &[
                "-D",
                data,
                "-l",
                log.to_str().expect("utf-8 temp path"),
                "-o",
                &opts,
                "-w",
                "-t",
                "60",
                "start",
            ],
        );
        check(start, "pg_ctl start", Some(&log));
        cluster
    }

    /// `postgres://` URL of the server's `postgres` database.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// The connection string for the `postgres` crate.
    pub fn conninfo(&self) -> String {
        format!(
            "host=127.0.0.1 port={} user=postgres dbname=postgres",
            self.port
        )
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(data) = self.data.to_str() {
            // Never panic here: this also runs while a failed test unwinds.
            let stop = ["-D", data, "-m", "immediate", "-w", "stop"];
            let _ = command(self.as_postgres, self.dir.path(), "pg_ctl", &stop).output();
        }
    }
}
