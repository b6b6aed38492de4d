//! The official MCP TypeScript and Python SDK clients drive the real
//! showcase binary over stdio and over Streamable HTTP
//! (tests/clients/showcase.mjs and tests/clients/python/showcase.py, and
//! modern.py for every protocol mode), and must get the same results on
//! both; and the fixture server, whose catalog changes while they are
//! connected (live.mjs, live.py). Needs Node.js with npm, and Python 3
//! with pip; each client is installed on first use at its pinned version.

mod auth_support;
mod http_support;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use http_support::{Running, example_binary, npm_ci_once, python_script, showcase_binary};

fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

/// `node showcase.mjs TARGET`, installing the TypeScript SDK if needed.
fn typescript_client(target: &str) -> Output {
    typescript_script("showcase.mjs", &[target])
}

/// `node SCRIPT ARGS...`, installing the TypeScript SDK if needed.
fn typescript_script(script: &str, args: &[&str]) -> Output {
    let dir = clients_dir();
    npm_ci_once(&dir);
    Command::new("node")
        .arg(script)
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("node is needed to run the official MCP client")
}

/// `python SCRIPT ARGS...`, installing the Python SDK if needed.
fn python_client(script: &str, args: &[&str]) -> Output {
    python_script("python", script, args)
}

fn assert_all_passed(output: &Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the official client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}

fn stdio_target() -> String {
    showcase_binary().display().to_string()
}

#[test]
fn typescript_client_over_stdio() {
    assert_all_passed(&typescript_client(&stdio_target()));
}

#[test]
fn typescript_client_over_http() {
    let server = Running::showcase(&[]);
    assert_all_passed(&typescript_client(&server.url()));
}

#[test]
fn python_client_over_stdio() {
    assert_all_passed(&python_client("showcase.py", &[&stdio_target()]));
}

#[test]
fn python_client_over_http() {
    let server = Running::showcase(&[]);
    assert_all_passed(&python_client("showcase.py", &[&server.url()]));
}

#[test]
fn both_clients_over_stateless_http() {
    let server = Running::showcase(&["--stateless"]);
    assert_all_passed(&typescript_client(&server.url()));
    assert_all_passed(&python_client("showcase.py", &[&server.url()]));
}

/// Both clients call the showcase serving with auth on, each caller with
/// its own bearer token from a local issuer (tests/clients/auth.mjs and
/// python/auth.py): `whoami`, and `deploy_notes` only for the caller with
/// the `deploy` scope.
#[test]
fn both_clients_call_the_showcase_with_a_bearer_token() {
    let key = auth_support::SigningKey::new("k1");
    let issuer = auth_support::Issuer::start(&[&key]);
    let server = Running::showcase(&["--auth-issuer", &issuer.url]);
    let reader = key.sign(&issuer.claims("ann", &server.url(), "prompts read"));
    let deployer = key.sign(&issuer.claims("bob", &server.url(), "deploy prompts"));
    let args = [server.url(), reader, deployer];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let typescript = typescript_script("auth.mjs", &args);
    assert_all_passed(&typescript);
    assert!(String::from_utf8_lossy(&typescript.stdout).contains("3 passed, 0 failed"));
    let python = python_client("auth.py", &args);
    assert_all_passed(&python);
    assert!(String::from_utf8_lossy(&python.stdout).contains("6 passed, 0 failed"));
}

/// The Python client in every mode (`auto`, which probes `server/discover`
/// and so speaks 2026-07-28 here, pinned to 2026-07-28, and `legacy`),
/// with and without an elicitation callback: the same texts in each, and
/// `deploy_notes` accepted, declined, unasked and with its missing
/// argument asked for.
#[test]
fn python_client_in_every_mode_over_stdio() {
    assert_all_passed(&python_client("modern.py", &[&stdio_target()]));
}

#[test]
fn python_client_in_every_mode_over_http() {
    let server = Running::showcase(&[]);
    assert_all_passed(&python_client("modern.py", &[&server.url()]));
}

/// What the listing says of typed arguments (a date's format, a number's
/// range and default, JSON) and what a form asks (a date's JSON Schema
/// `format`), with the Python client over stdio in both eras; a value out
/// of range or a bad date is -32602.
#[test]
fn python_client_reads_the_hints_of_typed_arguments() {
    let fixture = env!("CARGO_BIN_EXE_fixture-server");
    let output = python_client("hints.py", &[fixture]);
    assert_all_passed(&output);
    assert!(String::from_utf8_lossy(&output.stdout).contains("10 passed, 0 failed"));
}

/// The fixture server's catalog is live: both clients see a prompt removed,
/// added back, disabled and enabled again through the announcement and a
/// new `prompts/list` (the Python client also in `auto` mode, through
/// `subscriptions/listen`), over stdio and HTTP.
#[test]
fn both_clients_see_a_live_catalog_change() {
    let fixture = env!("CARGO_BIN_EXE_fixture-server");
    assert_all_passed(&typescript_script("live.mjs", &[fixture]));
    assert_all_passed(&python_client("live.py", &[fixture]));
    let server = Running::fixture(&[]);
    assert_all_passed(&typescript_script("live.mjs", &[&server.url()]));
    assert_all_passed(&python_client("live.py", &[&server.url()]));
}

/// A directory of prompt files edited while each client is connected (a
/// file added, edited, broken, fixed and deleted) is seen through the
/// announcement and a new `prompts/list`, over stdio and HTTP; the Python
/// client also in `auto` mode, through `subscriptions/listen`.
#[test]
fn both_clients_see_prompt_files_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    let showcase = stdio_target();
    assert_all_passed(&typescript_script("prompt_files.mjs", &[&showcase, path]));
    assert_all_passed(&python_client("prompt_files.py", &[&showcase, path]));
    let server = Running::showcase(&["--prompts-dir", path]);
    assert_all_passed(&typescript_script(
        "prompt_files.mjs",
        &[&server.url(), path],
    ));
    assert_all_passed(&python_client("prompt_files.py", &[&server.url(), path]));
}

/// The prompt folders other tools keep (a Claude Code commands folder, a
/// VS Code prompts folder, a dotprompt folder), served as they are by the
/// showcase's `--prompts-dir` and by `mcp-prompts serve`, over stdio and
/// HTTP: the Python client lists and gets each in `legacy` and `auto` mode.
#[test]
fn python_client_reads_other_tools_prompt_folders() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let showcase = stdio_target();
    let cli = http_support::cli_binary();
    let cli = cli.to_str().unwrap();
    for (kind, folder) in [
        ("claude", "claude-commands"),
        ("vscode", "vscode-prompts"),
        ("dotprompt", "dotprompt"),
    ] {
        let dir = examples.join(folder);
        let dir = dir.to_str().unwrap();
        assert_all_passed(&python_client(
            "folders.py",
            &[kind, &showcase, "--prompts-dir", dir],
        ));
        assert_all_passed(&python_client("folders.py", &[kind, cli, "serve", dir]));
    }
    let dir = examples.join("dotprompt");
    let server = Running::showcase(&["--prompts-dir", dir.to_str().unwrap()]);
    assert_all_passed(&python_client("folders.py", &["dotprompt", &server.url()]));
}

/// `examples/with_rmcp.rs`: rmcp's tool and the showcase's prompts in one
/// server. Both clients see the tool, and the prompts answer exactly as the
/// showcase's do (the same scripts, the same expectations), over rmcp's
/// stdio and Streamable HTTP.
#[test]
fn both_clients_see_tools_and_prompts_in_an_rmcp_server() {
    let binary = example_binary("with_rmcp");
    let stdio = binary.to_str().unwrap();
    assert_all_passed(&typescript_script("showcase.mjs", &[stdio, "with_rmcp"]));
    assert_all_passed(&python_client("showcase.py", &[stdio, "with_rmcp"]));
    let server = Running::example("with_rmcp");
    let url = server.url();
    assert_all_passed(&typescript_script("showcase.mjs", &[&url, "with_rmcp"]));
    assert_all_passed(&python_client("showcase.py", &[&url, "with_rmcp"]));
}

/// A server with rmcp's tools and a folder of prompt files, the common
/// one (`examples/with_rmcp.rs --prompts-dir DIR`): the official Python
/// client hears of each file's change in `legacy` mode (`list_changed`) and
/// in `auto` mode (2026-07-28's `subscriptions/listen`, served through
/// rmcp's listen hooks), over rmcp's stdio and Streamable HTTP.
#[test]
fn python_client_hears_of_prompt_file_changes_in_an_rmcp_server() {
    let binary = example_binary("with_rmcp");
    for route in ["stdio", "http"] {
        let dir = std::env::temp_dir().join(format!(
            "mcp-prompts-rmcp-files-{route}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let folder = dir.to_str().unwrap();
        let output = if route == "stdio" {
            let stdio = binary.to_str().unwrap();
            python_client("rmcp_files.py", &[folder, stdio, "--prompts-dir", folder])
        } else {
            let server = Running::example_with("with_rmcp", &["--prompts-dir", folder]);
            python_client("rmcp_files.py", &[folder, &server.url()])
        };
        assert_all_passed(&output);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The rmcp route is equal for callers too: `examples/with_rmcp.rs` with
/// `--auth-issuer` verifies tokens in front of rmcp's Streamable HTTP, rmcp
/// hands the request's parts (and so its caller) over, and both clients get
/// what they get from the showcase: `whoami`, and `deploy_notes` only with
/// the `deploy` scope.
#[test]
fn both_clients_call_an_rmcp_server_with_a_bearer_token() {
    let key = auth_support::SigningKey::new("k1");
    let issuer = auth_support::Issuer::start(&[&key]);
    let server = Running::example_with("with_rmcp", &["--auth-issuer", &issuer.url]);
    let reader = key.sign(&issuer.claims("ann", &server.url(), "prompts read"));
    let deployer = key.sign(&issuer.claims("bob", &server.url(), "deploy prompts"));
    let args = [server.url(), reader, deployer];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_all_passed(&typescript_script("auth.mjs", &args));
    assert_all_passed(&python_client("auth.py", &args));
}

/// `examples/team_server`, the recipe for a team's server, as its README
/// walks through it: the official Python client as a developer and as a
/// release manager, each with a token from a local issuer.
#[test]
fn python_client_serves_a_team_from_the_team_server_example() {
    let key = auth_support::SigningKey::new("k1");
    let issuer = auth_support::Issuer::start(&[&key]);
    let server = Running::example_with("team_server", &["--auth-issuer", &issuer.url]);
    let developer = key.sign(&issuer.claims("dev", &server.url(), "prompts"));
    let manager = key.sign(&issuer.claims("rm", &server.url(), "prompts release"));
    let args = [server.url(), developer, manager];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_all_passed(&python_client("team_server.py", &args));
}

/// The prompt tools, through both clients' `callTool`: the showcase with
/// `--prompts-as-tools` over stdio and HTTP (the Python client in `auto`
/// mode, 2026-07-28, and `legacy`), and the same tools from an rmcp
/// server's tool router.
#[test]
fn both_clients_call_the_prompt_tools() {
    let stdio = stdio_target();
    assert_all_passed(&typescript_script("tools.mjs", &[&stdio]));
    assert_all_passed(&python_client("tools.py", &[&stdio]));
    let server = Running::showcase(&["--prompts-as-tools"]);
    assert_all_passed(&typescript_script("tools.mjs", &[&server.url()]));
    assert_all_passed(&python_client("tools.py", &[&server.url()]));
    let rmcp = example_binary("with_rmcp");
    let rmcp = rmcp.to_str().unwrap();
    assert_all_passed(&typescript_script("tools.mjs", &[rmcp, "with_rmcp"]));
    assert_all_passed(&python_client("tools.py", &[rmcp, "with_rmcp"]));
    let server = Running::example_with("with_rmcp", &["--prompts-as-tools"]);
    assert_all_passed(&typescript_script(
        "tools.mjs",
        &[&server.url(), "with_rmcp"],
    ));
    assert_all_passed(&python_client("tools.py", &[&server.url(), "with_rmcp"]));
}

/// The rmcp route is equal: the Python client in every mode (`auto` and
/// pinned 2026-07-28, where rmcp answers with an `InputRequiredResult`, and
/// `legacy`, where it sends `elicitation/create`) gets `deploy_notes`'
/// question and the missing-argument form from `examples/with_rmcp.rs`,
/// answers, and the prompt completes, over rmcp's stdio and Streamable
/// HTTP: the same script and expectations as on our own transports.
#[test]
fn python_client_in_every_mode_in_an_rmcp_server() {
    let binary = example_binary("with_rmcp");
    assert_all_passed(&python_client("modern.py", &[binary.to_str().unwrap()]));
    let server = Running::example("with_rmcp");
    assert_all_passed(&python_client("modern.py", &[&server.url()]));
}

/// Two `--stateless` showcase replicas sharing
/// `MCP_PROMPTS_REQUEST_STATE_SECRET`, behind nginx (round robin), as a
/// team scales out: the official Python client lists, and completes ten
/// 2026-07-28 question rounds whose legs land on different replicas
/// (nginx's log says which replica served each `prompts/get`); with auth
/// on, with a bearer token issued for the proxy's public URL, and `whoami`.
/// Needs nginx (`.ci/run` installs it).
fn replicas_behind_nginx(auth: bool) {
    let key = auth_support::SigningKey::new("k1");
    let issuer = auth_support::Issuer::start(&[&key]);
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}/mcp");
    let mut options = vec!["--stateless"];
    if auth {
        options.extend(["--auth-issuer", &issuer.url, "--auth-audience", &public]);
    }
    let secret = [(
        "MCP_PROMPTS_REQUEST_STATE_SECRET",
        "a shared secret of thirty-two bytes or more",
    )];
    let replicas = [
        Running::showcase_with_env(&options, &secret),
        Running::showcase_with_env(&options, &secret),
    ];
    let nginx = Nginx::start(port, &replicas);
    let token = auth.then(|| key.sign(&issuer.claims("carol", &public, "deploy prompts")));
    let mut args = vec![public.as_str()];
    args.extend(token.as_deref());
    let output = python_client("replicas.py", &args);
    assert_all_passed(&output);
    let checks = if auth {
        "3 passed, 0 failed"
    } else {
        "2 passed, 0 failed"
    };
    assert!(String::from_utf8_lossy(&output.stdout).contains(checks));
    // The rounds' legs were served by both replicas.
    let log = nginx.log();
    for replica in &replicas {
        let served = log
            .lines()
            .filter(|line| line.contains("prompts/get") && line.contains(&replica.addr.to_string()))
            .count();
        assert!(
            served >= 10,
            "replica {} served {served} gets:\n{log}",
            replica.addr
        );
    }
}

#[test]
fn stateless_replicas_behind_nginx_finish_each_others_rounds() {
    replicas_behind_nginx(false);
}

#[test]
fn stateless_replicas_behind_nginx_with_auth() {
    replicas_behind_nginx(true);
}

/// A loopback port nothing listens on (for a moment).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// nginx in the foreground, proxying `port` to the replicas round robin,
/// logging each request's method and the replica that served it.
struct Nginx {
    child: std::process::Child,
    dir: tempfile::TempDir,
}

impl Nginx {
    fn start(port: u16, replicas: &[Running]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let servers = replicas
            .iter()
            .map(|r| format!("server {};", r.addr))
            .collect::<Vec<_>>()
            .join(" ");
        let config = format!(
            "daemon off;
             worker_processes 1;
             error_log stderr;
             pid {dir}/nginx.pid;
             events {{ worker_connections 64; }}
             http {{
                 log_format served '$http_mcp_method $upstream_addr $status';
                 access_log {dir}/access.log served;
                 client_body_temp_path {dir};
                 proxy_temp_path {dir};
                 upstream replicas {{ {servers} }}
                 server {{
                     listen 127.0.0.1:{port};
                     location / {{
                         proxy_pass http://replicas;
                         proxy_http_version 1.1;
                         proxy_buffering off;
                         proxy_set_header Host $http_host;
                     }}
                 }}
             }}",
            dir = dir.path().display()
        );
        let path = dir.path().join("nginx.conf");
        std::fs::write(&path, config).unwrap();
        // Debian's nginx is in /usr/sbin, which not every PATH holds.
        let binary = ["/usr/sbin/nginx", "/usr/local/sbin/nginx"]
            .into_iter()
            .find(|path| Path::new(path).exists())
            .unwrap_or("nginx");
        let child = Command::new(binary)
            .args(["-p", &dir.path().display().to_string(), "-c"])
            .arg(&path)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(dir.path().join("stderr")).unwrap())
            .spawn()
            .expect("nginx is needed for the scale-out test (.ci/run installs it)");
        let start = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            let stderr = std::fs::read_to_string(dir.path().join("stderr")).unwrap_or_default();
            assert!(
                start.elapsed().as_secs() < 10,
                "nginx does not listen: {stderr}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Self { child, dir }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("access.log")).unwrap_or_default()
    }
}

impl Drop for Nginx {
    /// SIGTERM, so the master stops its workers too (SIGKILL would leave
    /// them running).
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}
