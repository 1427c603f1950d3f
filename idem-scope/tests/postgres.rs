//! `POSTGRES_SCHEMA` against a real PostgreSQL: a throwaway cluster is created
//! under a temp dir with the machine's `initdb` / `pg_ctl` (PostgreSQL 15 on
//! PATH) and stopped again when the test ends, also on failure.
//!
//! PostgreSQL refuses to run as root, so as root the server commands run as
//! the `postgres` OS user through `runuser`. If no cluster can be started the
//! test fails (it never skips) and says why.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use idem_scope::{scoped, scoped_server, Fingerprint, ScopedKey, POSTGRES_SCHEMA};
use postgres::error::SqlState;
use postgres::{Client, NoTls};

struct Cluster {
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
    fn start() -> Cluster {
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

    fn connect(&self) -> Client {
        let conn = format!(
            "host=127.0.0.1 port={} user=postgres dbname=postgres",
            self.port
        );
        Client::connect(&conn, NoTls)
            .unwrap_or_else(|e| panic!("PostgreSQL started but refused a connection: {e}"))
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

fn insert(db: &mut Client, key: &ScopedKey, fp: &Fingerprint) -> Result<u64, postgres::Error> {
    let c = key.columns();
    db.execute(
        "INSERT INTO idempotency_records
             (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress', now() + interval '24 hours')",
        &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key, &&fp.as_bytes()[..]],
    )
}

fn sql_state(res: Result<u64, postgres::Error>) -> SqlState {
    res.expect_err("insert should have been refused")
        .code()
        .cloned()
        .expect("a database error with a SQLSTATE")
}

#[test]
fn composite_primary_key_scopes_rows_by_the_full_tuple() {
    let cluster = Cluster::start();
    let mut db = cluster.connect();
    db.batch_execute(POSTGRES_SCHEMA)
        .expect("POSTGRES_SCHEMA loads");

    let client_key = "8e03978e-40d5-43e8-bc93-6894a57f9324";
    let fp = Fingerprint::of("POST /v1/charges", br#"{"amount":100}"#);
    let a = scoped("tenant_a", "u1", "POST /v1/charges", client_key).unwrap();
    let b = scoped("tenant_b", "u1", "POST /v1/charges", client_key).unwrap();

    // Same client key under two tenants: two rows.
    assert_eq!(insert(&mut db, &a, &fp).unwrap(), 1);
    assert_eq!(insert(&mut db, &b, &fp).unwrap(), 1);
    let rows: i64 = db
        .query_one(
            "SELECT count(*) FROM idempotency_records WHERE idem_key = $1",
            &[&client_key],
        )
        .unwrap()
        .get(0);
    assert_eq!(rows, 2);

    // The same full tuple again: refused by the primary key.
    assert_eq!(
        sql_state(insert(&mut db, &a, &fp)),
        SqlState::UNIQUE_VIOLATION
    );

    // Every other element of the tuple makes a distinct row too.
    let others = [
        scoped("tenant_a", "u2", "POST /v1/charges", client_key).unwrap(),
        scoped("tenant_a", "u1", "POST /v1/refunds", client_key).unwrap(),
        scoped_server("tenant_a", "u1", "POST /v1/charges", client_key).unwrap(),
    ];
    for k in &others {
        assert_eq!(insert(&mut db, k, &fp).unwrap(), 1, "{k:?}");
    }
    let total: i64 = db
        .query_one("SELECT count(*) FROM idempotency_records", &[])
        .unwrap()
        .get(0);
    assert_eq!(total, 5);

    // The claim completes with a conditional update; the CHECKs hold the vocabulary.
    let c = a.columns();
    let pk = "scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6";
    let done = db
        .execute(
            &format!("UPDATE idempotency_records SET status = 'completed', response = $7 WHERE {pk} AND status = 'in_progress'"),
            &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key, &&b"{\"id\":\"ch_1\"}"[..]],
        )
        .unwrap();
    assert_eq!(done, 1);
    let bad_status = db.execute(
        &format!("UPDATE idempotency_records SET status = 'done' WHERE {pk}"),
        &[
            &c.scope_version,
            &c.tenant_id,
            &c.principal_id,
            &c.route,
            &c.ns,
            &c.idem_key,
        ],
    );
    assert_eq!(sql_state(bad_status), SqlState::CHECK_VIOLATION);
    let bad_ns = db.execute(
        "INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status, expires_at)
         VALUES ('v1', 't', 'p', 'r', 'x:', 'k', $1, 'in_progress', now())",
        &[&&fp.as_bytes()[..]],
    );
    assert_eq!(sql_state(bad_ns), SqlState::CHECK_VIOLATION);
}
