//! A DynamoDB Local of a test's own, for the fault tests that hang and kill it,
//! started by the project's one launcher, `scripts/ddb-local.sh` (the jar from
//! `DDB_LOCAL_DIR` when set, as `make test` sets it).

use std::{
    path::PathBuf,
    process::Command,
    time::{Duration, Instant},
};

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port on 127.0.0.1")
}

/// A running DynamoDB Local keeping its data in `data` (so a restart on the same
/// port finds it again). Killed when dropped.
pub struct DynamoDbLocal {
    pid: u32,
    pub port: u16,
    pub data: PathBuf,
}

impl DynamoDbLocal {
    pub fn start(port: u16, data: PathBuf) -> DynamoDbLocal {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/ddb-local.sh");
        let mut command = Command::new("bash");
        command
            .arg(script)
            .arg(port.to_string())
            .arg("--db-path")
            .arg(&data)
            .arg(data.join("dynamodb.log"));
        if let Ok(dir) = std::env::var("DDB_LOCAL_DIR") {
            command.env("DDB_DIR", dir);
        }
        let out = command.output().expect("bash runs scripts/ddb-local.sh");
        assert!(
            out.status.success(),
            "scripts/ddb-local.sh failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pid = String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .expect("scripts/ddb-local.sh prints the pid");
        DynamoDbLocal { pid, port, data }
    }

    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Sends `signal` (`-STOP`, `-CONT`...) to the server.
    pub fn signal(&self, signal: &str) {
        let ok = Command::new("kill")
            .args([signal, &self.pid.to_string()])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "kill {signal} {}", self.pid);
        if signal == "-STOP" {
            self.until_every_thread_stopped();
        }
    }

    /// A stop signal reaches one thread first and the others only when that thread
    /// runs; on a busy machine the JVM's other threads went on answering requests
    /// for a while after `kill` returned. Waits until every thread shows `T`.
    fn until_every_thread_stopped(&self) {
        let tasks = PathBuf::from(format!("/proc/{}/task", self.pid));
        let started = Instant::now();
        loop {
            let running = std::fs::read_dir(&tasks)
                .map(|dir| {
                    dir.flatten().any(|task| {
                        std::fs::read_to_string(task.path().join("stat")).is_ok_and(|stat| {
                            // The state follows the command name's closing parenthesis.
                            stat.rsplit_once(") ")
                                .is_some_and(|(_, rest)| !rest.starts_with('T'))
                        })
                    })
                })
                .unwrap_or(false);
            if !running {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "DynamoDB Local ({}) did not stop within 10 s",
                self.pid
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills the server (its process group) and waits until it is gone; answers the
    /// port and the data to start it again.
    pub fn stop(self) -> (u16, PathBuf) {
        self.kill();
        let (port, data) = (self.port, self.data.clone());
        std::mem::forget(self);
        (port, data)
    }

    fn kill(&self) {
        let group = format!("-{}", self.pid);
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let started = Instant::now();
        while Command::new("kill")
            .args(["-0", &self.pid.to_string()])
            .status()
            .is_ok_and(|s| s.success())
            && started.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for DynamoDbLocal {
    fn drop(&mut self) {
        self.kill();
    }
}
