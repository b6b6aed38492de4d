//! nginx in front of replicas, as a load balancer puts them: round robin,
//! or each client kept on one replica (by an `X-Client` header, as a
//! cookie would), with the replica that answered in `X-Upstream`.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Nginx {
    child: Child,
    dir: PathBuf,
    pub port: u16,
}

impl Nginx {
    /// Proxies its port to `replicas`: round robin, or by `X-Client` when
    /// `sticky`.
    pub fn start(replicas: &[u16], sticky: bool) -> Self {
        let port = super::free_port();
        let dir =
            std::env::temp_dir().join(format!("mcp-prompts-nginx-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let servers = replicas
            .iter()
            .map(|p| format!("server 127.0.0.1:{p};"))
            .collect::<Vec<_>>()
            .join("\n");
        let balance = if sticky {
            "hash $http_x_client consistent;"
        } else {
            ""
        };
        let dir_text = dir.display();
        let config = format!(
            "daemon off;
             worker_processes 1;
             pid {dir_text}/nginx.pid;
             error_log {dir_text}/error.log;
             events {{ worker_connections 256; }}
             http {{
               access_log off;
               client_body_temp_path {dir_text};
               proxy_temp_path {dir_text};
               upstream replicas {{ {balance} {servers} }}
               server {{
                 listen 127.0.0.1:{port};
                 location / {{
                   proxy_pass http://replicas;
                   proxy_http_version 1.1;
                   proxy_set_header Connection \"\";
                   proxy_set_header Host $http_host;
                   proxy_buffering off;
                   proxy_read_timeout 300s;
                   add_header X-Upstream $upstream_addr always;
                 }}
               }}
             }}"
        );
        let path = dir.join("nginx.conf");
        std::fs::write(&path, config).unwrap();
        let binary = ["/usr/sbin/nginx", "/usr/local/sbin/nginx"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .unwrap_or("nginx");
        let child = Command::new(binary)
            .args(["-c", path.to_str().unwrap(), "-p", dir.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx is needed for the replicas' test (.ci/run installs it)");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(10), "nginx listens");
            std::thread::sleep(Duration::from_millis(20));
        }
        Self { child, dir, port }
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
