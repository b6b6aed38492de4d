//! A real PostgreSQL server for the registry's tests and benchmarks, in a
//! temporary folder of its own: Debian's `postgresql` package (`.ci/run`
//! installs it), whose programs are in a versioned folder off `PATH`.
//! `initdb` refuses to run as root: as root (CI), the folder is given to
//! the `postgres` user and every program runs as it.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A PostgreSQL server listening on 127.0.0.1, stopped and removed on drop.
pub struct Postgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_root: bool,
}

impl Postgres {
    /// Starts a new cluster (trust authentication, no fsync: a test's).
    pub fn start() -> Self {
        let bin = bin_dir();
        let dir = std::env::temp_dir().join(format!(
            "mcp-prompts-pg-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let as_root = is_root();
        if as_root {
            let owned = Command::new("chown")
                .args(["-R", "postgres:postgres", dir.to_str().unwrap()])
                .status()
                .unwrap();
            assert!(owned.success(), "chown of {}", dir.display());
        }
        let port = super::free_port();
        let pg = Self {
            bin,
            dir,
            port,
            as_root,
        };
        let data = pg.data();
        let made = pg
            .program("initdb")
            .args([
                "-D",
                &data,
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
                // The C locale: a machine's own may not be generated.
                "--locale=C",
            ])
            .output()
            .expect("initdb runs");
        assert!(
            made.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&made.stderr)
        );
        pg.resume();
        pg
    }

    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the server (fast shutdown: connections are cut).
    pub fn stop(&self) {
        let stopped = self
            .program("pg_ctl")
            .args(["-D", &self.data(), "-m", "fast", "-w", "stop"])
            .output()
            .unwrap();
        assert!(
            stopped.status.success(),
            "pg_ctl stop: {}",
            String::from_utf8_lossy(&stopped.stderr)
        );
    }

    /// Starts the server again on the same port, once it accepts
    /// connections. Small and off `/dev/shm` (a container's is small), so
    /// that several tests' servers run at once.
    pub fn resume(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -F -c max_connections=200 \
             -c shared_buffers=16MB -c dynamic_shared_memory_type=mmap",
            self.port,
            self.dir.display()
        );
        let log = self.dir.join("postgres.log");
        let started = self
            .program("pg_ctl")
            .args(["-D", &self.data(), "-w", "-t", "60", "-o", &options, "-l"])
            .arg(&log)
            .arg("start")
            .output()
            .unwrap();
        assert!(
            started.status.success(),
            "pg_ctl start: {}{}",
            String::from_utf8_lossy(&started.stderr),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "postgres listens"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs `sql` through psql as the superuser; its output.
    pub fn psql(&self, sql: &str) -> String {
        let out = Command::new("psql")
            .args([
                "-X",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                &self.url(),
                "-c",
                sql,
            ])
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn data(&self) -> String {
        self.dir.join("data").to_str().unwrap().to_owned()
    }

    /// One of the server's programs, run as `postgres` when we are root.
    fn program(&self, name: &str) -> Command {
        let path = self.bin.join(name);
        if self.as_root {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self
            .program("pg_ctl")
            .args(["-D", &self.data(), "-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The folder holding `initdb`, `pg_ctl` and `postgres`: Debian's
/// versioned one (the newest), else wherever `PATH` finds `initdb`.
fn bin_dir() -> PathBuf {
    let versions = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten();
    let mut found: Vec<(u32, PathBuf)> = versions
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version: u32 = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    if let Some((_, bin)) = found.pop() {
        return bin;
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .find(|dir| dir.join("initdb").exists() && dir.join("pg_ctl").exists())
        .expect(
            "PostgreSQL's server is needed (Debian: the `postgresql` package; .ci/run installs it)",
        )
}

fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}
