//! A throwaway `redis-server` on a free loopback port, without persistence,
//! killed when dropped (also on failure). The test fails, never skips, when
//! it cannot be started.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RedisServer {
    child: Child,
    port: u16,
    // Removed after the server is killed.
    _dir: tempfile::TempDir,
}

impl RedisServer {
    pub fn start() -> RedisServer {
        let dir = tempfile::Builder::new()
            .prefix("idem-scope-redis")
            .tempdir()
            .expect("create temp dir");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot run `redis-server`: {e}. These tests need a Redis 7 server binary on PATH \
                     (Debian: apt-get install redis-server; .ci/run installs it)"
                )
            });
        let server = RedisServer {
            child,
            port,
            _dir: dir,
        };
        server.wait_ready();
        server
    }

    fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", self.port)) {
                use std::io::{Read, Write};
                let mut buf = [0u8; 7];
                if s.write_all(b"PING\r\n").is_ok() && s.read_exact(&mut buf).is_ok() {
                    assert_eq!(&buf, b"+PONG\r\n", "redis-server answered PING oddly");
                    return;
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!(
            "redis-server did not answer PING on 127.0.0.1:{} within 20 s",
            self.port
        );
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        // Never panic here: this also runs while a failed test unwinds.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
