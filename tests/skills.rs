//! Agent Skills from real folders, served by the showcase (`--skills-dir`)
//! as a client reaches them: over stdio in a session and statelessly, and
//! over HTTP with sessions and without. Every entry's front matter, digests
//! and sizes are checked against the files on disk, every file is read back
//! byte for byte, and each kind of bad skill is refused on its line while
//! the good ones are served.

mod auth_support;
mod http_support;
mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use hyper::{Method, StatusCode};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use http_support::{Events, Running, open_session, post_modern, send, showcase_binary, text};
use support::{Client, LATEST, listed_prompt, modern, rpc};

/// A skills folder of good and bad skills, made afresh for one test.
struct Skills {
    root: PathBuf,
}

impl Skills {
    fn new(test: &str) -> Self {
        let root =
            std::env::temp_dir().join(format!("mcp-prompts-skills-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let skills = Self { root };
        skills.write(
            "alpha/SKILL.md",
            b"---\nname: alpha\ndescription: The first skill\nlicense: MIT\nmetadata:\n  owner: team-a\n  rank: '2'\nallowed-tools: Read Grep\nx-limits:\n  ratio: 0.5\n  tries: [1, 2]\n---\n# Alpha\n\nRead `notes.txt`.\n",
        );
        skills.write(
            "alpha/notes.txt",
            "line one\r\nligne deux, \u{e9}t\u{e9} \u{2603}\r\n".as_bytes(),
        );
        skills.write(
            "alpha/data/logo.bin",
            &[0x89, b'P', b'N', b'G', 0xff, 0x00, 0xfe],
        );
        skills.write(
            "alpha/beta/SKILL.md",
            b"---\nname: beta\ndescription: Nested in alpha\n---\nBeta.\n",
        );
        skills.write(
            "acme/billing/refunds/SKILL.md",
            b"---\nname: refunds\ndescription: Refunds, under a prefix\n---\nRefund.\n",
        );
        skills.write(
            ".hidden/gamma/SKILL.md",
            b"---\nname: gamma\ndescription: Hidden\n---\n",
        );
        // Bad ones, each refused whole, on its line.
        skills.write(
            "misnamed/SKILL.md",
            b"---\nname: other\ndescription: Not its folder's name\n---\n",
        );
        skills.write(
            "broken/SKILL.md",
            b"---\nname: broken\ndescription: [unclosed\n---\n",
        );
        skills.write(
            "nan/SKILL.md",
            b"---\nname: nan\ndescription: NaN inside\nratio: .nan\n---\n",
        );
        skills.write(
            "twice/SKILL.md",
            b"---\nname: twice\ndescription: d\nname: twice\n---\n",
        );
        skills.write("undescribed/SKILL.md", b"---\nname: undescribed\n---\n");
        skills.write(
            "mistyped/SKILL.md",
            b"---\nname: mistyped\ndescription: d\nallowed-tools: [Read]\n---\n",
        );
        skills.write(
            "crowded/SKILL.md",
            b"---\nname: crowded\ndescription: Too many files\n---\n",
        );
        for i in 0..512 {
            skills.write(&format!("crowded/files/{i}.txt"), b"x");
        }
        skills.write(
            "leaky/SKILL.md",
            b"---\nname: leaky\ndescription: A link out\n---\n",
        );
        fs::write(
            skills
                .root
                .parent()
                .unwrap()
                .join("mcp-prompts-skills-secret.txt"),
            "secret",
        )
        .unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(
            skills
                .root
                .parent()
                .unwrap()
                .join("mcp-prompts-skills-secret.txt"),
            skills.root.join("leaky/secret.txt"),
        )
        .unwrap();
        skills
    }

    fn write(&self, path: &str, bytes: &[u8]) {
        let path = self.root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }

    fn path(&self) -> &str {
        self.root.to_str().unwrap()
    }

    fn bytes(&self, uri: &str) -> Vec<u8> {
        fs::read(self.root.join(uri.strip_prefix("skill://").unwrap())).unwrap()
    }

    /// The showcase over stdio, serving these skills, its log kept.
    fn stdio(&self) -> Client {
        self.stdio_with(&[])
    }

    /// The same, with `extra` options.
    fn stdio_with(&self, extra: &[&str]) -> Client {
        let mut command = Command::new(showcase_binary());
        command.args(["--skills-dir", self.path()]).args(extra);
        Client::start_program(command)
    }
}

impl Drop for Skills {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn digest(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    Sha256::digest(bytes)
        .iter()
        .fold(String::from("sha256:"), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

/// The bytes a `resources/read` result holds: its text, or its decoded blob.
fn contents(read: &Value) -> Vec<u8> {
    let contents = &read["result"]["contents"];
    assert_eq!(contents.as_array().map(Vec::len), Some(1), "{read}");
    match (&contents[0]["text"], &contents[0]["blob"]) {
        (Value::String(text), Value::Null) => text.as_bytes().to_vec(),
        (Value::Null, Value::String(blob)) => base64::engine::general_purpose::STANDARD
            .decode(blob)
            .unwrap(),
        _ => panic!("neither text nor blob: {read}"),
    }
}

/// What `skills/list` lists, by the path of each skill.
fn listed_paths(listed: &Value) -> Vec<&str> {
    listed["result"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| {
            let uri = skill["uri"].as_str().unwrap();
            uri.strip_prefix("skill://")
                .unwrap()
                .strip_suffix("/SKILL.md")
                .unwrap()
        })
        .collect()
}

#[test]
fn over_stdio_every_good_skill_is_listed_with_its_files_as_they_are_on_disk() {
    let skills = Skills::new("stdio");
    let mut client = skills.stdio();
    let init = client.initialize(LATEST);
    // Skills come from watched folders: their changes are announced.
    assert_eq!(
        init["capabilities"]["resources"],
        json!({"listChanged": true}),
        "{init}"
    );
    // Extensions came with 2026-07-28.
    assert!(init["capabilities"].get("extensions").is_none(), "{init}");

    // The folder's skills, and the one the showcase embeds.
    let listed = client.call("skills/list", json!({}));
    assert_eq!(
        listed_paths(&listed),
        [
            "acme/billing/refunds",
            "alpha",
            "alpha/beta",
            "showcase-guide"
        ],
        "{listed}"
    );
    let alpha = &listed["result"]["skills"][1];
    assert_eq!(
        alpha["frontmatter"],
        json!({"name": "alpha", "description": "The first skill", "license": "MIT",
               "metadata": {"owner": "team-a", "rank": "2"}, "allowed-tools": "Read Grep",
               "x-limits": {"ratio": 0.5, "tries": [1, 2]}})
    );
    // Its nested skill's files are its files too.
    let uris: Vec<&str> = alpha["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://alpha/SKILL.md",
            "skill://alpha/beta/SKILL.md",
            "skill://alpha/data/logo.bin",
            "skill://alpha/notes.txt",
        ]
    );
    // Every file of every entry from the folder: its digest and size are
    // the file's, and reading it gives its bytes.
    for skill in &listed["result"]["skills"].as_array().unwrap()[..3] {
        for file in skill["resources"].as_array().unwrap() {
            let uri = file["uri"].as_str().unwrap();
            let bytes = skills.bytes(uri);
            assert_eq!(file["digest"], digest(&bytes), "{uri}");
            assert_eq!(file["size"], bytes.len(), "{uri}");
            let read = client.call("resources/read", json!({"uri": uri}));
            assert_eq!(contents(&read), bytes, "{uri}: {read}");
            assert_eq!(read["result"]["contents"][0]["uri"], uri, "{read}");
        }
    }
    let binary = client.call(
        "resources/read",
        json!({"uri": "skill://alpha/data/logo.bin"}),
    );
    assert!(binary["result"]["contents"][0]["blob"].is_string());
    let skill_md = client.call("resources/read", json!({"uri": "skill://alpha/SKILL.md"}));
    assert_eq!(
        skill_md["result"]["contents"][0]["mimeType"],
        "text/markdown"
    );

    let got = client.call(
        "skills/get",
        json!({"uri": "skill://acme/billing/refunds/SKILL.md"}),
    );
    assert_eq!(
        got["result"]["skill"], listed["result"]["skills"][0],
        "{got}"
    );

    // Every bad skill is refused on its file and line, and serves nothing.
    for (needle, line) in [
        ("misnamed/SKILL.md:2:", "differs from its folder"),
        ("broken/SKILL.md:", "front matter"),
        ("nan/SKILL.md:4:", "NaN"),
        ("twice/SKILL.md:4:", "twice"),
        ("undescribed/SKILL.md:1:", "`description` is missing"),
        ("mistyped/SKILL.md:4:", "`allowed-tools` must be text"),
        ("crowded/: more than 512 files", "512"),
    ] {
        let logged = client.log_line(needle);
        assert!(logged.contains(line), "{logged}");
    }
    #[cfg(unix)]
    assert!(
        client
            .log_line("leaky/secret.txt")
            .contains("outside the directory")
    );
    for refused in [
        "skill://misnamed/SKILL.md",
        "skill://leaky/SKILL.md",
        "skill://crowded/files/1.txt",
    ] {
        let read = client.call("resources/read", json!({"uri": refused}));
        assert_eq!(read["error"]["code"], -32002, "{read}");
    }
    let (rest, status) = client.finish();
    assert!(rest.is_empty() && status.success(), "{rest:?} {status}");
}

#[test]
fn uris_that_name_nothing_are_refused_with_their_revisions_code() {
    let skills = Skills::new("uris");
    let mut client = skills.stdio();
    client.initialize(LATEST);
    for uri in [
        "skill://alpha/../alpha/SKILL.md",
        "skill://alpha/./SKILL.md",
        "skill://alpha//SKILL.md",
        "skill://alpha/%53KILL.md",
        "skill://alpha%2FSKILL.md",
        "skill://alpha/SKILL.md/",
        "skill://.hidden/gamma/SKILL.md",
        "file:///etc/passwd",
    ] {
        let read = client.call("resources/read", json!({"uri": uri}));
        assert_eq!(read["error"]["code"], -32002, "{read}");
        // The URI asked for is in `data`, as SEP-2164 says.
        assert_eq!(read["error"]["data"], json!({"uri": uri}), "{read}");
        assert!(
            read["error"]["message"].as_str().unwrap().contains(uri),
            "{read}"
        );
        let modern_read = client.call("resources/read", modern(json!({"uri": uri}), json!({})));
        assert_eq!(modern_read["error"]["code"], -32602, "{modern_read}");
        let got = client.call("skills/get", json!({"uri": uri}));
        assert_eq!(got["error"]["code"], -32602, "{got}");
    }
    // A directory is not a file, a file not a directory, and a folder
    // that only leads to skills is neither.
    let read = client.call("resources/read", json!({"uri": "skill://alpha/data"}));
    assert_eq!(read["error"]["code"], -32002, "{read}");
    for uri in [
        "skill://alpha/notes.txt",
        "skill://acme",
        "skill://acme/billing",
    ] {
        let listed = client.call("resources/directory/read", json!({"uri": uri}));
        assert_eq!(listed["error"]["code"], -32602, "{listed}");
    }
    let listed = client.call("resources/directory/read", json!({"uri": "skill://alpha"}));
    assert_eq!(
        listed["result"]["resources"],
        json!([
            {"uri": "skill://alpha/SKILL.md", "name": "alpha", "description": "The first skill",
             "mimeType": "text/markdown", "size": skills.bytes("skill://alpha/SKILL.md").len()},
            {"uri": "skill://alpha/beta", "name": "beta", "mimeType": "inode/directory"},
            {"uri": "skill://alpha/data", "name": "data", "mimeType": "inode/directory"},
            {"uri": "skill://alpha/notes.txt", "name": "notes.txt", "mimeType": "text/plain",
             "size": skills.bytes("skill://alpha/notes.txt").len()},
        ]),
        "{listed}"
    );
    // Clients that know no skills find every file in resources/list:
    // the folder's five and the embedded skill's two.
    let all = client.call("resources/list", json!({}));
    assert_eq!(
        all["result"]["resources"].as_array().unwrap().len(),
        7,
        "{all}"
    );
}

#[test]
fn a_3_mib_uri_is_echoed_cut_and_the_server_serves_on() {
    let skills = Skills::new("long-uri");
    let mut client = skills.stdio();
    client.initialize(LATEST);
    let uri = format!("skill://alpha/{}", "u".repeat(3 << 20));
    let cut = format!("…({} bytes)", uri.len());
    let plain = json!({"uri": uri});
    for (method, params) in [
        ("resources/read", plain.clone()),
        ("resources/read", modern(plain.clone(), json!({}))),
        ("skills/get", plain.clone()),
        ("resources/directory/read", plain),
    ] {
        let refused = client.call(method, params);
        let error = &refused["error"];
        assert!(error.is_object(), "{method}: no error");
        // Client input repeated in an error: 64 characters and its length.
        let echoes = error["data"]["uri"]
            .as_str()
            .into_iter()
            .chain(error["message"].as_str());
        for echo in echoes {
            let start: String = echo.chars().take(80).collect();
            assert!(echo.len() < 200, "{method}: {} bytes: {start}", echo.len());
            assert!(echo.contains(&cut), "{method}: {echo}");
        }
        assert!(
            refused.to_string().len() < 512,
            "{method}: a {} byte answer",
            refused.to_string().len()
        );
    }
    // Still serving.
    let read = client.call("resources/read", json!({"uri": "skill://alpha/SKILL.md"}));
    assert!(read["result"]["contents"].is_array(), "{read}");
}

#[test]
fn a_stateless_request_sees_the_extension_and_caching_hints() {
    let skills = Skills::new("modern");
    let mut client = skills.stdio();
    let discovered = client.call("server/discover", modern(json!({}), json!({})));
    assert_eq!(
        discovered["result"]["capabilities"]["extensions"],
        json!({"io.modelcontextprotocol/skills": {"directoryRead": true}}),
        "{discovered}"
    );
    let listed = client.call("skills/list", modern(json!({}), json!({})));
    let result = &listed["result"];
    assert_eq!(result["resultType"], "complete", "{listed}");
    assert_eq!(result["cacheScope"], "public", "{listed}");
    assert!(result["ttlMs"].as_u64().is_some(), "{listed}");
    assert_eq!(listed_paths(&listed).len(), 4, "{listed}");
    let got = client.call(
        "skills/get",
        modern(json!({"uri": "skill://alpha/beta/SKILL.md"}), json!({})),
    );
    assert_eq!(
        got["result"]["skill"]["frontmatter"]["name"], "beta",
        "{got}"
    );
    assert_eq!(got["result"]["resultType"], "complete", "{got}");
}

#[test]
fn without_skills_the_methods_are_not_found() {
    // The fixture server: the showcase always serves its embedded skill.
    let mut client = Client::start();
    let init = client.initialize(LATEST);
    assert!(init["capabilities"].get("resources").is_none(), "{init}");
    for method in [
        "skills/list",
        "skills/get",
        "resources/read",
        "resources/directory/read",
    ] {
        let refused = client.call(method, json!({"uri": "skill://alpha/SKILL.md"}));
        assert_eq!(refused["error"]["code"], -32601, "{refused}");
    }
}

#[tokio::test]
async fn over_http_skills_are_served_with_and_without_sessions() {
    let skills = Skills::new("http");
    let server = Running::showcase(&["--skills-dir", skills.path()]);
    let session = open_session(&server, LATEST);
    let headers = [
        ("accept", "application/json, text/event-stream"),
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LATEST),
    ];
    let uri = "skill://alpha/data/logo.bin";
    let response = send(
        server.addr,
        Method::POST,
        &headers,
        rpc(2, "resources/read", &json!({"uri": uri})),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let read = http_support::last_message(&text(response).await);
    assert_eq!(contents(&read), skills.bytes(uri), "{read}");

    let stateless = Running::showcase(&["--stateless", "--skills-dir", skills.path()]);
    let request = |method: &str, params: Value| json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": modern(params, json!({}))});
    let (status, listed) = post_modern(&stateless, &request("skills/list", json!({})), &[]).await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    assert_eq!(listed_paths(&listed).len(), 4, "{listed}");
    // `resources/read` names its URI in `Mcp-Name`.
    let read = request("resources/read", json!({"uri": uri}));
    let (status, answer) = post_modern(&stateless, &read, &[("mcp-name", uri)]).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(contents(&answer), skills.bytes(uri), "{answer}");
    let (status, answer) = post_modern(
        &stateless,
        &read,
        &[("mcp-name", "skill://alpha/notes.txt")],
    )
    .await;
    assert_eq!(
        (status, answer["error"]["code"].clone()),
        (StatusCode::BAD_REQUEST, json!(-32020)),
        "{answer}"
    );
    let (status, answer) = post_modern(&stateless, &read, &[]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
}

/// The showcase stops at start when a skills folder cannot be read.
#[test]
fn a_skills_folder_that_is_not_there_stops_the_start() {
    let missing: &Path = Path::new("/nonexistent/mcp-prompts-skills");
    let output = Command::new(showcase_binary())
        .args(["--skills-dir", missing.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("/nonexistent/mcp-prompts-skills"),
        "{stderr}"
    );
}

/// The client of `FastMCP` (`fastmcp` on `PyPI`), as a host uses it:
/// it lists the skills (`skills/list`, `skills/get`), downloads every file
/// through `resources/read` checking sizes, digests and front matter, and
/// the download equals the folders. On every route: the showcase over
/// stdio and stateless HTTP, the CLI (`mcp-prompts serve`) over stdio and
/// HTTP, and inside an rmcp server (`with_rmcp`, rmcp's Streamable HTTP).
/// The showcase serves `showcase-guide` too, embedded when it compiled: its
/// digests, worked out then, must match the folder it came from.
#[test]
fn fastmcps_client_lists_verifies_and_downloads_the_skills() {
    let skills = Skills::new("fastmcp");
    let root = skills.path();
    let embedded = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/showcase/skills");
    let both = format!("{root},{}", embedded.display());
    let folders = "acme/billing/refunds,alpha,alpha/beta";
    let with_guide = format!("{folders},showcase-guide");
    let showcase = showcase_binary();
    let showcase = showcase.to_str().unwrap();
    let cli = http_support::cli_binary();
    let cli = cli.to_str().unwrap();
    let http = Running::showcase(&["--stateless", "--skills-dir", root]);
    let http_guide = Running::showcase(&[]);
    let rmcp = Running::example_with("with_rmcp", &["--skills-dir", root]);
    let mut cli_http = Command::new(cli);
    cli_http.args(["serve", root, "--http", "127.0.0.1:0"]);
    let cli_http = Running::program(cli_http);
    let runs: [(&str, &str, Vec<String>); 7] = [
        (
            &both,
            &with_guide,
            vec![showcase.into(), "--skills-dir".into(), root.into()],
        ),
        (&both, &with_guide, vec![http.url()]),
        (&both, "showcase-guide", vec![showcase.into()]),
        (&both, "showcase-guide", vec![http_guide.url()]),
        (root, folders, vec![cli.into(), "serve".into(), root.into()]),
        (root, folders, vec![cli_http.url()]),
        (root, folders, vec![rmcp.url()]),
    ];
    for (roots, expected, target) in runs {
        run_script("fastmcp", &[roots, expected], &target);
    }
}

/// `skills.py ARGS... TARGET...` in the clients' folder `folder`, which
/// must pass both its checks.
fn run_script(folder: &str, args: &[&str], target: &[String]) {
    run_checks(folder, "skills.py", 2, args, target);
}

/// `SCRIPT ARGS... TARGET...` in the clients' folder `folder`, which must
/// pass all `checks` of its checks.
fn run_checks(folder: &str, script: &str, checks: usize, args: &[&str], target: &[String]) {
    let mut args = args.to_vec();
    args.extend(target.iter().map(String::as_str));
    let output = http_support::python_script(folder, script, &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains(&format!("{checks} passed, 0 failed")),
        "the {folder} client's {script} failed against {target:?}:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The official Python client, which knows no skills, reads them as plain
/// resources: listed, and every file read byte for byte, in both eras,
/// over stdio and over HTTP.
#[test]
fn the_official_python_client_reads_skills_as_plain_resources() {
    let skills = Skills::new("python");
    let root = skills.path();
    let embedded = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/showcase/skills");
    let roots = format!("{root},{}", embedded.display());
    let showcase = showcase_binary();
    let http = Running::showcase(&["--skills-dir", root]);
    let targets: [Vec<String>; 2] = [
        vec![
            showcase.to_str().unwrap().into(),
            "--skills-dir".into(),
            root.into(),
        ],
        vec![http.url()],
    ];
    for target in targets {
        run_script("python", &[&roots, "7"], &target);
    }
}

/// A file changed, added or removed makes a new snapshot with new digests,
/// announced to the session; a skill broken on disk stops being served,
/// and serves again once fixed.
#[test]
fn a_session_hears_of_changed_skills_and_is_served_the_new_bytes() {
    let skills = Skills::new("reload");
    let mut client = skills.stdio();
    client.initialize(LATEST);
    let entry = |client: &mut Client, uri: &str| {
        client.call("skills/get", json!({"uri": uri}))["result"]["skill"].clone()
    };
    let before = entry(&mut client, "skill://alpha/SKILL.md");

    skills.write("alpha/notes.txt", b"rewritten\n");
    assert_eq!(
        client.read(),
        json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
    );
    let after = entry(&mut client, "skill://alpha/SKILL.md");
    assert_ne!(after["resources"], before["resources"]);
    let notes = after["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == "skill://alpha/notes.txt")
        .unwrap()
        .clone();
    assert_eq!(notes["digest"], digest(b"rewritten\n"), "{after}");
    let read = client.call("resources/read", json!({"uri": "skill://alpha/notes.txt"}));
    assert_eq!(contents(&read), b"rewritten\n", "{read}");

    // A new skill, in a new folder.
    skills.write(
        "gamma/SKILL.md",
        b"---\nname: gamma\ndescription: Added while serving\n---\n",
    );
    client.assert_resources_changed();
    assert_eq!(
        entry(&mut client, "skill://gamma/SKILL.md")["frontmatter"]["name"],
        "gamma"
    );

    // Broken on disk: no longer served, and said so; fixed: served again.
    skills.write(
        "gamma/SKILL.md",
        b"---\nname: wrong\ndescription: Broken\n---\n",
    );
    client.assert_resources_changed();
    let gone = client.call("skills/get", json!({"uri": "skill://gamma/SKILL.md"}));
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
    assert!(
        client
            .log_line("gamma/SKILL.md:2:")
            .contains("differs from its folder")
    );
    skills.write(
        "gamma/SKILL.md",
        b"---\nname: gamma\ndescription: Fixed\n---\n",
    );
    client.assert_resources_changed();
    assert_eq!(
        entry(&mut client, "skill://gamma/SKILL.md")["frontmatter"]["description"],
        "Fixed"
    );

    // Removed.
    fs::remove_dir_all(skills.root.join("gamma")).unwrap();
    client.assert_resources_changed();
    let gone = client.call("skills/get", json!({"uri": "skill://gamma/SKILL.md"}));
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
}

/// A 2026-07-28 client hears of skill changes on its
/// `subscriptions/listen`, when it asks for `resourcesListChanged`.
#[test]
fn a_listen_stream_hears_of_changed_skills() {
    let skills = Skills::new("listen");
    let mut client = skills.stdio();
    let params = modern(
        json!({"notifications": {"resourcesListChanged": true}}),
        json!({}),
    );
    client.send_line(&rpc(7, "subscriptions/listen", &params));
    let ack = client.read();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourcesListChanged": true}),
        "{ack}"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "{ack}"
    );
    skills.write("alpha/notes.txt", b"changed\n");
    let changed = client.read();
    assert_eq!(
        changed["method"], "notifications/resources/list_changed",
        "{changed}"
    );
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "{changed}"
    );
}

/// A skill limited to a scope (`metadata: mcp-prompts/scopes`) is hidden,
/// with the skill nested in it and every file, from a caller without the
/// scope, on every method, exactly as a skill that does not exist; a
/// caller holding it sees both; results are cached privately.
#[tokio::test]
async fn a_scoped_skill_is_hidden_from_callers_without_its_scope() {
    let skills = Skills::new("scoped");
    skills.write(
        "vault/SKILL.md",
        b"---\nname: vault\ndescription: Secrets\nmetadata:\n  mcp-prompts/scopes: finance\n---\n",
    );
    skills.write("vault/keys.txt", b"k");
    skills.write(
        "vault/inner/SKILL.md",
        b"---\nname: inner\ndescription: Nested in the vault\n---\n",
    );
    let key = auth_support::SigningKey::new("k1");
    let issuer = auth_support::Issuer::start(&[&key]);
    let server = Running::showcase(&[
        "--stateless",
        "--auth-issuer",
        &issuer.url,
        "--skills-dir",
        skills.path(),
    ]);
    let bearer = |scope: &str| {
        format!(
            "Bearer {}",
            key.sign(&issuer.claims("ann", &server.url(), scope))
        )
    };
    let (reader, finance) = (bearer("prompts"), bearer("prompts finance"));
    let call = |method: &str, params: Value| json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": modern(params, json!({}))});
    let hidden = ["vault", "vault/inner"];

    let (status, listed) = post_modern(
        &server,
        &call("skills/list", json!({})),
        &[("authorization", &reader)],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    assert_eq!(listed["result"]["cacheScope"], "private", "{listed}");
    assert!(
        !listed_paths(&listed).iter().any(|p| hidden.contains(p)),
        "{listed}"
    );
    let (_, all) = post_modern(
        &server,
        &call("resources/list", json!({})),
        &[("authorization", &reader)],
    )
    .await;
    assert!(!all.to_string().contains("vault"), "{all}");
    for (method, uri) in [
        ("skills/get", "skill://vault/SKILL.md"),
        ("skills/get", "skill://vault/inner/SKILL.md"),
        ("resources/read", "skill://vault/keys.txt"),
        ("resources/read", "skill://vault/inner/SKILL.md"),
        ("resources/directory/read", "skill://vault"),
    ] {
        let answer = ask(&server, &reader, method, uri).await;
        assert_eq!(answer["error"]["code"], -32602, "{method} {uri}: {answer}");
        // The same answer as for a skill that does not exist.
        let unknown = ask(&server, &reader, method, &uri.replace("vault", "nowhere")).await;
        assert_eq!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .replace("vault", "nowhere"),
            unknown["error"]["message"],
            "{answer} {unknown}"
        );
    }

    let (_, listed) = post_modern(
        &server,
        &call("skills/list", json!({})),
        &[("authorization", &finance)],
    )
    .await;
    for path in hidden {
        assert!(listed_paths(&listed).contains(&path), "{listed}");
    }
    let vault = listed["result"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["uri"] == "skill://vault/SKILL.md")
        .unwrap()
        .clone();
    assert_eq!(vault["resources"].as_array().unwrap().len(), 3, "{vault}");
    let uri = "skill://vault/keys.txt";
    let headers = [("authorization", finance.as_str()), ("mcp-name", uri)];
    let (_, read) = post_modern(
        &server,
        &call("resources/read", json!({"uri": uri})),
        &headers,
    )
    .await;
    assert_eq!(contents(&read), b"k", "{read}");
}

/// A stateless `method` naming `uri`, sent with `bearer`'s token (and, for
/// `resources/read`, the `Mcp-Name` header it needs).
async fn ask(server: &Running, bearer: &str, method: &str, uri: &str) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method,
                      "params": modern(json!({"uri": uri}), json!({}))});
    let mut headers = vec![("authorization", bearer)];
    if method == "resources/read" {
        headers.push(("mcp-name", uri));
    }
    let (status, answer) = post_modern(server, &body, &headers).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

/// Over stateless HTTP too: a `subscriptions/listen` `POST` asking for
/// `resourcesListChanged` is an event stream that carries the
/// acknowledgement, then each change of the skills; and the next request
/// is served the new bytes.
#[tokio::test]
async fn a_listen_stream_over_http_hears_of_changed_skills() {
    let skills = Skills::new("http-listen");
    let server = Running::showcase(&["--stateless", "--skills-dir", skills.path()]);
    let headers = [
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "subscriptions/listen"),
    ];
    let params = modern(
        json!({"notifications": {"resourcesListChanged": true}}),
        json!({}),
    );
    let stream = send(
        server.addr,
        Method::POST,
        &headers,
        rpc(7, "subscriptions/listen", &params),
    )
    .await;
    let mut events = Events::new(stream);
    let ack = events.next().await;
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourcesListChanged": true}),
        "{ack}"
    );
    skills.write("alpha/notes.txt", b"over http\n");
    let changed = events.next().await;
    assert_eq!(
        changed["method"], "notifications/resources/list_changed",
        "{changed}"
    );
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "{changed}"
    );
    let uri = "skill://alpha/notes.txt";
    let read = json!({"jsonrpc": "2.0", "id": 8, "method": "resources/read",
                      "params": modern(json!({"uri": uri}), json!({}))});
    let (_, read) = post_modern(&server, &read, &[("mcp-name", uri)]).await;
    assert_eq!(contents(&read), b"over http\n", "{read}");
}

/// Skills as prompts (`--skills-as-prompts`), for hosts that know no
/// skills: each skill is a prompt named by its path, its messages the
/// `SKILL.md` embedded under its URI, links to its own files (from
/// 2025-06-18) and the request; a name another prompt has is refused and
/// the skill still served; the prompt follows the skill's changes, and
/// reaches hosts that show only tools through the prompt tools.
#[test]
fn each_skill_is_also_a_prompt_when_asked() {
    let skills = Skills::new("bridge");
    skills.write(
        "greet/SKILL.md",
        b"---\nname: greet\ndescription: Collides with a prompt\n---\n",
    );
    let mut command = Command::new(showcase_binary());
    command.args([
        "--skills-dir",
        skills.path(),
        "--skills-as-prompts",
        "--prompts-as-tools",
    ]);
    let mut client = Client::start_program(command);
    let init = client.initialize(LATEST);
    assert_eq!(
        init["capabilities"]["prompts"],
        json!({"listChanged": true}),
        "{init}"
    );
    let listed = client.call("prompts/list", json!({}));
    let alpha = listed_prompt(&listed, "alpha");
    assert_eq!(
        alpha,
        json!({"name": "alpha", "description": "The first skill",
                "arguments": [{"name": "request", "description": "What to do with the skill", "required": false}]})
    );
    for name in ["alpha.beta", "acme.billing.refunds"] {
        listed_prompt(&listed, name);
    }
    // `greet` is the showcase's own prompt; the skill is still served.
    let line = client.log_line("`greet` is not served");
    assert!(
        line.contains("examples/showcase/prompts.rs:") && line.contains("has that name"),
        "{line}"
    );
    let greet = client.call("skills/get", json!({"uri": "skill://greet/SKILL.md"}));
    assert_eq!(
        greet["result"]["skill"]["frontmatter"]["name"], "greet",
        "{greet}"
    );

    let got = client.get("alpha", json!({"request": "Summarize the notes"}));
    let skill_md = String::from_utf8(skills.bytes("skill://alpha/SKILL.md")).unwrap();
    assert_eq!(
        got["result"]["messages"],
        json!([
            {"role": "user", "content": {"type": "resource", "resource":
                {"uri": "skill://alpha/SKILL.md", "mimeType": "text/markdown", "text": skill_md}}},
            {"role": "user", "content": {"type": "resource_link", "uri": "skill://alpha/data/logo.bin",
                "name": "logo.bin", "mimeType": "application/octet-stream"}},
            {"role": "user", "content": {"type": "resource_link", "uri": "skill://alpha/notes.txt",
                "name": "notes.txt", "mimeType": "text/plain"}},
            {"role": "user", "content": {"type": "text", "text": "Summarize the notes"}},
        ]),
        "{got}"
    );
    let tool = client.call(
        "tools/call",
        json!({"name": "get_prompt", "arguments": {"name": "alpha.beta"}}),
    );
    assert_ne!(tool["result"]["isError"], true, "{tool}");
    assert!(tool["result"]["content"].is_array(), "{tool}");
    assert!(tool.to_string().contains("Nested in alpha"), "{tool}");

    // The prompt follows its skill.
    skills.write(
        "alpha/beta/SKILL.md",
        b"---\nname: beta\ndescription: Renamed in place\n---\n",
    );
    let mut announced =
        [client.read(), client.read()].map(|m| m["method"].as_str().unwrap_or_default().to_owned());
    announced.sort();
    assert_eq!(
        announced,
        [
            "notifications/prompts/list_changed",
            "notifications/resources/list_changed"
        ]
    );
    let listed = client.call("prompts/list", json!({}));
    let beta = listed_prompt(&listed, "alpha.beta");
    assert_eq!(beta["description"], "Renamed in place", "{listed}");

    // Before 2025-06-18 there are no resource links: the SKILL.md alone.
    let mut old = skills.stdio_with(&["--skills-as-prompts"]);
    old.initialize("2025-03-26");
    let got = old.get("alpha", json!({}));
    let messages = got["result"]["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{got}");
    assert_eq!(messages[0]["content"]["type"], "resource", "{got}");
}

/// A folder for `mcp-prompts serve DIR --skills-as-prompts`: the skill
/// `git/commit`, whose prompt would be `git.commit`, and (with
/// `prompt_file`) the prompt file `git/commit.md`, which is `git.commit`
/// too.
fn colliding_folder(test: &str, prompt_file: bool) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mcp-prompts-collide-{test}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("git/commit")).unwrap();
    fs::write(
        dir.join("git/commit/SKILL.md"),
        "---\nname: commit\ndescription: The commit skill\n---\nThe skill's steps.\n",
    )
    .unwrap();
    if prompt_file {
        fs::write(dir.join("git/commit.md"), "Commit from the prompt file.\n").unwrap();
    }
    dir
}

/// Sends `method` and reads on to its answer, passing over the
/// notifications a change of the folder sends, whenever they come.
fn ask_past_notifications(client: &mut Client, method: &str, params: &Value) -> Value {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1_000);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    client.send_line(&rpc(id, method, params));
    loop {
        let message = client.read();
        if message.get("id").is_some() {
            assert_eq!(message["id"], id, "{message}");
            return message;
        }
    }
}

/// What `prompts/get git.commit` gives: the prompt file's text, or
/// `resource` for the skill's prompt (its `SKILL.md` embedded).
fn commit_prompt(client: &mut Client) -> String {
    let got = ask_past_notifications(
        client,
        "prompts/get",
        &json!({"name": "git.commit", "arguments": {}}),
    );
    let content = &got["result"]["messages"][0]["content"];
    match content["type"].as_str() {
        Some("text") => content["text"].as_str().unwrap().trim().to_owned(),
        Some(kind) => kind.to_owned(),
        None => panic!("no message: {got}"),
    }
}

/// Asks `commit_prompt` until it is `expected`, for up to 10 s: a change
/// on disk is read about 100 ms after it.
fn wait_for_commit_prompt(client: &mut Client, expected: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let now = commit_prompt(client);
        if now == expected {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "`git.commit` is still {now:?}, not {expected:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A prompt file's prompt keeps its name from a skill's prompt, read at
/// the same start: `prompts/get` gives the file's, a warning names both,
/// and the skill is still served.
#[test]
fn a_prompt_file_keeps_its_name_from_a_skill_s_prompt_at_the_start() {
    let dir = colliding_folder("start", true);
    let mut command = Command::new(http_support::cli_binary());
    command.arg("serve").arg(&dir).arg("--skills-as-prompts");
    let mut client = Client::start_program(command);
    client.initialize(LATEST);
    assert_eq!(commit_prompt(&mut client), "Commit from the prompt file.");
    let line = client.log_line("`git.commit` is not served");
    let file = dir.join("git/commit.md");
    assert!(
        line.contains("skill://git/commit/SKILL.md") && line.contains(file.to_str().unwrap()),
        "{line}"
    );
    let listed = ask_past_notifications(&mut client, "prompts/list", &json!({}));
    let named = listed["result"]["prompts"].as_array().unwrap();
    assert_eq!(
        named.iter().filter(|p| p["name"] == "git.commit").count(),
        1,
        "{listed}"
    );
    let skill = ask_past_notifications(
        &mut client,
        "skills/get",
        &json!({"uri": "skill://git/commit/SKILL.md"}),
    );
    assert_eq!(
        skill["result"]["skill"]["frontmatter"]["name"], "commit",
        "{skill}"
    );
    drop(client);
    let _ = fs::remove_dir_all(&dir);
}

/// The same whatever is read first and however often: a prompt file
/// added while its name is a skill's prompt's takes it, keeps it when the
/// skill or the file changes, and gives it back when it goes.
#[test]
fn a_prompt_file_keeps_its_name_from_a_skill_s_prompt_through_reloads() {
    let dir = colliding_folder("reload", false);
    let mut command = Command::new(http_support::cli_binary());
    command.arg("serve").arg(&dir).arg("--skills-as-prompts");
    let mut client = Client::start_program(command);
    client.initialize(LATEST);
    assert_eq!(commit_prompt(&mut client), "resource");

    let file = dir.join("git/commit.md");
    fs::write(&file, "Commit from the prompt file.\n").unwrap();
    wait_for_commit_prompt(&mut client, "Commit from the prompt file.");
    let line = client.log_line("`git.commit` is not served");
    assert!(
        line.contains("skill://git/commit/SKILL.md") && line.contains(file.to_str().unwrap()),
        "{line}"
    );

    // The skill changes: its prompt is made again, and still set aside.
    fs::write(
        dir.join("git/commit/SKILL.md"),
        "---\nname: commit\ndescription: Touched\n---\nThe skill's steps.\n",
    )
    .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let skill = ask_past_notifications(
            &mut client,
            "skills/get",
            &json!({"uri": "skill://git/commit/SKILL.md"}),
        );
        if skill["result"]["skill"]["frontmatter"]["description"] == "Touched" {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{skill}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(commit_prompt(&mut client), "Commit from the prompt file.");

    // The file changes: it keeps the name.
    fs::write(&file, "Commit from the edited prompt file.\n").unwrap();
    wait_for_commit_prompt(&mut client, "Commit from the edited prompt file.");

    // The file goes: the skill's prompt is served again.
    fs::remove_file(&file).unwrap();
    wait_for_commit_prompt(&mut client, "resource");
    drop(client);
    let _ = fs::remove_dir_all(&dir);
}

/// Skills as prompts through the official Python client, in both eras:
/// the messages, the resource links, the request, a colliding name left
/// to the prompt that had it, and the prompt tools.
#[test]
fn the_official_python_client_runs_skills_as_prompts() {
    let skills = Skills::new("python-bridge");
    skills.write(
        "greet/SKILL.md",
        b"---\nname: greet\ndescription: Collides with a prompt\n---\n",
    );
    let root = skills.path();
    let showcase = showcase_binary();
    let target = [
        showcase.to_str().unwrap().to_owned(),
        "--skills-dir".into(),
        root.into(),
        "--skills-as-prompts".into(),
        "--prompts-as-tools".into(),
    ];
    run_checks("python", "skill_prompts.py", 4, &[root], &target);
    let http = Running::showcase(&[
        "--skills-dir",
        root,
        "--skills-as-prompts",
        "--prompts-as-tools",
    ]);
    run_checks("python", "skill_prompts.py", 4, &[root], &[http.url()]);
}

/// A skill defined in code (`DynamicSkill`), served by the fixture server
/// over stdio in both eras: its entry's digests and sizes are those of the
/// bytes read back, its `SKILL.md` carries its front matter, and a binary
/// file comes back byte for byte.
#[test]
fn a_skill_from_code_is_served_like_one_from_a_folder() {
    let mut client = Client::start_with(&[("FIXTURE_CODE_SKILL", "1")]);
    let init = client.initialize(LATEST);
    // Skills from code do not change: no `listChanged` is promised.
    assert_eq!(init["capabilities"]["resources"], json!({}), "{init}");
    for params in [json!({}), modern(json!({}), json!({}))] {
        let listed = client.call("skills/list", params);
        let skill = &listed["result"]["skills"][0];
        assert_eq!(skill["uri"], "skill://team/notes/SKILL.md", "{listed}");
        assert_eq!(
            skill["frontmatter"],
            json!({"name": "notes", "description": "Take notes the team's way", "license": "MIT"}),
            "{listed}"
        );
        for file in skill["resources"].as_array().unwrap() {
            let read = client.call("resources/read", json!({"uri": file["uri"]}));
            let bytes = contents(&read);
            assert_eq!(file["digest"], digest(&bytes), "{read}");
            assert_eq!(file["size"], bytes.len(), "{read}");
        }
    }
    let skill_md = client.call(
        "resources/read",
        json!({"uri": "skill://team/notes/SKILL.md"}),
    );
    let text = String::from_utf8(contents(&skill_md)).unwrap();
    assert!(
        text.contains("\"license\": \"MIT\"") && text.ends_with("Follow `style.md`.\n"),
        "{text}"
    );
    let logo = client.call(
        "resources/read",
        json!({"uri": "skill://team/notes/logo.png"}),
    );
    assert_eq!(contents(&logo), [0x89, b'P', b'N', b'G', 0xff], "{logo}");
}

/// One way a client reaches a server: over stdio in a session or without
/// one (2026-07-28), over HTTP with a session or without.
enum Route {
    Session(Client),
    Stateless(Client),
    HttpSession(Running, String),
    HttpStateless(Running),
}

impl Route {
    /// The four routes to a server started by `stdio` (a client not yet
    /// initialized) and `http` (a server over HTTP, with or without
    /// sessions as `stateless` says).
    fn all(stdio: impl Fn() -> Client, http: impl Fn(bool) -> Running) -> [Self; 4] {
        let mut session = stdio();
        session.initialize(LATEST);
        let mut stateless = stdio();
        stateless.initialize(LATEST);
        let server = http(false);
        let id = open_session(&server, LATEST);
        [
            Self::Session(session),
            Self::Stateless(stateless),
            Self::HttpSession(server, id),
            Self::HttpStateless(http(true)),
        ]
    }

    /// The response to `method` with `params`.
    async fn ask(&mut self, method: &str, params: Value) -> Value {
        match self {
            Self::Session(client) => client.call(method, params),
            Self::Stateless(client) => client.call(method, modern(params, json!({}))),
            Self::HttpSession(server, session) => {
                let headers = [
                    ("accept", "application/json, text/event-stream"),
                    ("mcp-session-id", session.as_str()),
                    ("mcp-protocol-version", LATEST),
                ];
                let response =
                    send(server.addr, Method::POST, &headers, rpc(2, method, &params)).await;
                http_support::last_message(&text(response).await)
            }
            Self::HttpStateless(server) => {
                // `resources/read` names its URI in `Mcp-Name`.
                let name = match method {
                    "resources/read" => params["uri"].as_str().unwrap_or_default().to_owned(),
                    _ => String::new(),
                };
                let body = json!({"jsonrpc": "2.0", "id": 1, "method": method,
                                  "params": modern(params, json!({}))});
                post_modern(server, &body, &[("mcp-name", &name)]).await.1
            }
        }
    }
}

/// The skill the showcase embeds when it compiles (`include_skill!`) is
/// listed on every route with digests worked out then: each is the digest
/// of the file in the folder it came from, and `resources/read` gives those
/// bytes back exactly.
#[tokio::test]
async fn the_embedded_skill_is_served_as_its_folder_holds_it() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/showcase/skills");
    let routes = Route::all(
        || Client::start_program(Command::new(showcase_binary())),
        |stateless| Running::showcase(if stateless { &["--stateless"] } else { &[] }),
    );
    for mut route in routes {
        let got = route
            .ask(
                "skills/get",
                json!({"uri": "skill://showcase-guide/SKILL.md"}),
            )
            .await;
        let skill = &got["result"]["skill"];
        assert_eq!(skill["frontmatter"]["name"], "showcase-guide", "{got}");
        assert_eq!(
            skill["frontmatter"]["metadata"],
            json!({"server": "mcp-prompts-showcase"})
        );
        let files = skill["resources"].as_array().unwrap();
        let uris: Vec<&str> = files.iter().map(|f| f["uri"].as_str().unwrap()).collect();
        assert_eq!(
            uris,
            [
                "skill://showcase-guide/SKILL.md",
                "skill://showcase-guide/references/arguments.md"
            ]
        );
        for file in files {
            let uri = file["uri"].as_str().unwrap();
            let on_disk = fs::read(folder.join(uri.strip_prefix("skill://").unwrap())).unwrap();
            assert_eq!(file["digest"], digest(&on_disk), "{uri}");
            assert_eq!(file["size"], on_disk.len(), "{uri}");
            let read = route.ask("resources/read", json!({"uri": uri})).await;
            assert_eq!(contents(&read), on_disk, "{read}");
        }
        let listed = route.ask("skills/list", json!({})).await;
        assert_eq!(listed_paths(&listed), ["showcase-guide"], "{listed}");
    }
}

/// Skills from code on every route: one built with its files
/// (`DynamicSkill::builder`), served with its digests, and one generated,
/// listed as `"dynamic"` and made anew at each read.
#[tokio::test]
async fn skills_from_code_are_served_on_every_route() {
    let env = [("FIXTURE_CODE_SKILL", "1")];
    let routes = Route::all(
        || Client::start_with(&env),
        |stateless| {
            let mut env = env.to_vec();
            if stateless {
                env.push(("FIXTURE_STATELESS", "1"));
            }
            Running::fixture(&env)
        },
    );
    for mut route in routes {
        let listed = route.ask("skills/list", json!({})).await;
        assert_eq!(
            listed_paths(&listed),
            ["team/notes", "team/tally"],
            "{listed}"
        );
        let built = &listed["result"]["skills"][0];
        for file in built["resources"].as_array().unwrap() {
            let read = route
                .ask("resources/read", json!({"uri": file["uri"]}))
                .await;
            let bytes = contents(&read);
            assert_eq!(file["digest"], digest(&bytes), "{read}");
            assert_eq!(file["size"], bytes.len(), "{read}");
        }
        let generated = &listed["result"]["skills"][1];
        assert_eq!(generated["resources"], "dynamic", "{listed}");
        assert_eq!(
            generated["frontmatter"],
            json!({"name": "tally", "description": "How often this skill was read"})
        );
        let count = "skill://team/tally/count.txt";
        let read = route.ask("resources/read", json!({"uri": count})).await;
        // Made anew each time: no caching hints, even statelessly.
        assert!(read["result"].get("ttlMs").is_none(), "{read}");
        let first = contents(&read);
        let second = contents(&route.ask("resources/read", json!({"uri": count})).await);
        let [first, second] =
            [first, second].map(|bytes| String::from_utf8(bytes).unwrap().parse::<u32>().unwrap());
        assert!(second > first, "made anew: {first} then {second}");
        let skill_md = route
            .ask(
                "resources/read",
                json!({"uri": "skill://team/tally/SKILL.md"}),
            )
            .await;
        let text = String::from_utf8(contents(&skill_md)).unwrap();
        assert!(
            text.starts_with("---\n")
                && text.contains("\"name\": \"tally\"")
                && text.contains("# Tally"),
            "{text}"
        );
        let children = route
            .ask(
                "resources/directory/read",
                json!({"uri": "skill://team/tally"}),
            )
            .await;
        let names: Vec<&str> = children["result"]["resources"]
            .as_array()
            .unwrap_or_else(|| panic!("{children}"))
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["tally", "count.txt"], "{children}");
        let missing = route
            .ask(
                "resources/read",
                json!({"uri": "skill://team/tally/none.txt"}),
            )
            .await;
        assert!(missing["error"]["code"].is_i64(), "{missing}");
    }
}

/// Skills from code as prompts: the built one with links to its files,
/// the generated one showing what its closure makes at each `prompts/get`.
#[test]
fn skills_from_code_are_prompts_too() {
    let mut client = Client::start_with(&[
        ("FIXTURE_CODE_SKILL", "1"),
        ("FIXTURE_SKILLS_AS_PROMPTS", "1"),
    ]);
    client.initialize(LATEST);
    let notes = client.get("team.notes", json!({"request": "Note the meeting"}));
    let kinds: Vec<&str> = notes["result"]["messages"]
        .as_array()
        .unwrap_or_else(|| panic!("{notes}"))
        .iter()
        .map(|m| m["content"]["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["resource", "resource_link", "resource_link", "text"],
        "{notes}"
    );
    let tally = |client: &mut Client| {
        let got = client.get("team.tally", json!({}));
        let text = got["result"]["messages"][0]["content"]["resource"]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{got}"))
            .to_owned();
        let links = got["result"]["messages"].as_array().unwrap().len() - 1;
        (text, links)
    };
    let (first, links) = tally(&mut client);
    let (second, _) = tally(&mut client);
    assert_eq!(links, 1, "a link to count.txt");
    assert!(
        first.contains("# Tally") && first != second,
        "{first}\n{second}"
    );
}

/// `skills/list`, `resources/list` and `resources/directory/read` page by
/// default (50 entries a page), so a large folder never makes one huge
/// answer; `Server::page_size` still pages `prompts/list` alone.
#[test]
fn skill_listings_page_by_default_and_prompts_follow_page_size() {
    let root =
        std::env::temp_dir().join(format!("mcp-prompts-skills-paged-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    for n in 0..60 {
        let folder = root.join(format!("team/s{n:02}"));
        fs::create_dir_all(&folder).unwrap();
        let matter = format!("---\nname: s{n:02}\ndescription: Skill {n}\n---\n");
        fs::write(folder.join("SKILL.md"), matter).unwrap();
    }
    for n in 0..60 {
        fs::write(root.join(format!("team/s00/file{n:02}.txt")), "x").unwrap();
    }
    let mut client = Client::start_with(&[
        ("FIXTURE_SKILLS_DIR", root.to_str().unwrap()),
        ("FIXTURE_PAGE_SIZE", "3"),
    ]);
    client.initialize(LATEST);
    let prompts = client.call("prompts/list", json!({}));
    assert_eq!(prompts["result"]["prompts"].as_array().unwrap().len(), 3);
    assert!(prompts["result"]["nextCursor"].is_string(), "{prompts}");

    // Every page of a listing, followed by its cursors.
    let mut pages = |method: &str, params: Value, key: &str| {
        let mut pages: Vec<Vec<String>> = Vec::new();
        let mut params = params;
        loop {
            let listed = client.call(method, params.clone());
            let page = listed["result"][key]
                .as_array()
                .unwrap_or_else(|| panic!("{listed}"));
            pages.push(
                page.iter()
                    .map(|entry| entry["uri"].as_str().unwrap().to_owned())
                    .collect(),
            );
            match listed["result"]["nextCursor"].as_str() {
                Some(next) => params["cursor"] = json!(next),
                None => break pages,
            }
        }
    };
    let skills = pages("skills/list", json!({}), "skills");
    assert_eq!(skills[0].len(), 50, "{skills:?}");
    assert!(skills.iter().all(|page| page.len() <= 50), "{skills:?}");
    let listed: Vec<&String> = skills.iter().flatten().collect();
    for n in 0..60 {
        let uri = format!("skill://team/s{n:02}/SKILL.md");
        assert!(listed.contains(&&uri), "{uri} not listed");
    }
    let resources = pages("resources/list", json!({}), "resources");
    assert_eq!(resources[0].len(), 50, "{resources:?}");
    assert!(resources.len() >= 3, "{} pages", resources.len());
    let total: usize = resources.iter().map(Vec::len).sum();
    assert!(total >= 120, "{total} resources");
    let children = pages(
        "resources/directory/read",
        json!({"uri": "skill://team/s00"}),
        "resources",
    );
    assert_eq!(
        children.iter().map(Vec::len).collect::<Vec<_>>(),
        [50, 11],
        "{children:?}"
    );
    let _ = fs::remove_dir_all(&root);
}

/// A skills root holding only what the test writes, removed when dropped.
#[cfg(unix)]
fn bare_skills(test: &str) -> Skills {
    let root =
        std::env::temp_dir().join(format!("mcp-prompts-skills-{test}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).unwrap();
    Skills { root }
}

/// Sends a request with `id` and reads until its response, skipping the
/// change announcements that reloads send in between.
#[cfg(unix)]
fn answer(client: &mut Client, id: u64, method: &str, params: &Value) -> Value {
    let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    client.send_line(&request.to_string());
    loop {
        let message = client.read();
        if message["id"] == id {
            return message;
        }
        assert_eq!(
            message["method"], "notifications/resources/list_changed",
            "{message}"
        );
    }
}

/// A skill's folder swapped for a symbolic link to a folder outside the
/// root, thousands of times while the server reloads: the walk found a
/// folder, but the skill is then opened beneath the root's handle, never
/// by its path again, so the outside `SKILL.md` and its files are never
/// served, whichever moment a reload reads it at.
#[cfg(unix)]
#[test]
fn a_skill_folder_swapped_for_a_link_out_is_never_served_from_outside() {
    const SECRET: &str = "OUTSIDE-SECRET-7f3a";
    let skills = bare_skills("swap");
    let outside = std::env::temp_dir().join(format!(
        "mcp-prompts-skills-swap-outside-{}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&outside);
    fs::create_dir_all(outside.join("zz-evil")).unwrap();
    fs::write(
        outside.join("zz-evil/SKILL.md"),
        format!("---\nname: zz-evil\ndescription: {SECRET}\n---\n{SECRET}\n"),
    )
    .unwrap();
    fs::write(outside.join("zz-evil/secret.txt"), SECRET).unwrap();
    // Skills read before the swapped one, so that each reload spends a
    // while between finding its folder and reading it.
    for n in 0..40 {
        skills.write(
            &format!("aa-{n:02}/SKILL.md"),
            format!("---\nname: aa-{n:02}\ndescription: Padding\n---\n").as_bytes(),
        );
        for f in 0..5 {
            skills.write(&format!("aa-{n:02}/f{f}.txt"), b"padding");
        }
    }
    skills.write(
        ".real/SKILL.md",
        b"---\nname: zz-evil\ndescription: The one inside\n---\nInside.\n",
    );
    skills.write(".real/secret.txt", b"inside");
    std::os::unix::fs::symlink(outside.join("zz-evil"), skills.root.join(".link")).unwrap();

    let mut client = skills.stdio();
    client.initialize(LATEST);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (root, stop) = (skills.root.clone(), std::sync::Arc::clone(&stop));
        std::thread::spawn(move || {
            let (evil, real, link) = (root.join("zz-evil"), root.join(".real"), root.join(".link"));
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(6);
            let mut swaps = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed)
                && std::time::Instant::now() < deadline
            {
                // Each stays a moment, the folder gone only between.
                fs::rename(&real, &evil).unwrap();
                std::thread::sleep(std::time::Duration::from_micros(50));
                fs::rename(&evil, &real).unwrap();
                fs::rename(&link, &evil).unwrap();
                std::thread::sleep(std::time::Duration::from_micros(50));
                fs::rename(&evil, &link).unwrap();
                swaps += 1;
            }
            swaps
        })
    };
    let uris = ["skill://zz-evil/SKILL.md", "skill://zz-evil/secret.txt"];
    let (mut id, mut asked) = (1u64, 0);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while std::time::Instant::now() < deadline {
        let mut answers = vec![
            answer(&mut client, id, "skills/get", &json!({"uri": uris[0]})),
            answer(&mut client, id + 1, "skills/list", &json!({})),
        ];
        for (n, uri) in uris.iter().enumerate() {
            answers.push(answer(
                &mut client,
                id + 2 + n as u64,
                "resources/read",
                &json!({"uri": uri}),
            ));
        }
        id += 10;
        for got in &answers {
            asked += 1;
            assert!(
                !got.to_string().contains(SECRET),
                "served from outside the root: {got}"
            );
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert!(swaps > 1000, "only {swaps} swaps");
    assert!(asked > 100, "only {asked} answers");
    let _ = fs::remove_dir_all(&outside);

    // Settled as the real folder, the skill inside is served.
    fs::rename(skills.root.join(".real"), skills.root.join("zz-evil")).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let got = answer(&mut client, id, "skills/get", &json!({"uri": uris[0]}));
        id += 1;
        if got["result"]["skill"]["frontmatter"]["description"] == "The one inside" {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{got}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A name that could pass for another's is refused on its line: a
/// full-width folder naming itself `pdf` (names are compared as they are),
/// a Hangul filler after `pdf`, a Cyrillic `р` among Latin letters. A
/// file whose name hides a character (a right-to-left override, a
/// zero-width space) refuses its whole skill, naming the file.
#[cfg(unix)]
#[test]
fn look_alike_skill_names_and_hidden_file_names_are_refused() {
    let skills = bare_skills("look-alike");
    let skill = |folder: &str, name: &str| {
        skills.write(
            &format!("{folder}/SKILL.md"),
            format!("---\nname: {name}\ndescription: The {folder} skill\n---\nDo it.\n").as_bytes(),
        );
    };
    skill("pdf", "pdf");
    skill("\u{ff50}\u{ff44}\u{ff46}", "pdf");
    skill("pdf\u{3164}", "pdf\u{3164}");
    skill("\u{440}df", "\u{440}df");
    skill("notes", "notes");
    skills.write("notes/gpj.\u{202e}txt", b"not a picture");
    skill("zero", "zero");
    skills.write("zero/a\u{200b}b.md", b"hidden");
    let mut client = skills.stdio();
    client.initialize(LATEST);
    let listed = client.call("skills/list", json!({}));
    assert_eq!(listed_paths(&listed), ["pdf", "showcase-guide"], "{listed}");
    for (needle, expected) in [
        (
            "\u{ff50}\u{ff44}\u{ff46}/SKILL.md:2:",
            "differs from its folder's, `\u{ff50}\u{ff44}\u{ff46}`",
        ),
        ("pdf\u{3164}/SKILL.md:2:", "holds U+3164"),
        ("\u{440}df/SKILL.md:2:", "mixes scripts"),
        ("notes/: `gpj.\\u{202e}txt` holds U+202E", "shows nothing"),
        ("zero/: `a\\u{200b}b.md` holds U+200B", "shows nothing"),
    ] {
        let logged = client.log_line(needle);
        assert!(logged.contains(expected), "{logged}");
    }
    for refused in [
        "skill://notes/SKILL.md",
        "skill://zero/SKILL.md",
        "skill://pdf\u{3164}/SKILL.md",
    ] {
        let read = client.call("resources/read", json!({"uri": refused}));
        assert_eq!(read["error"]["code"], -32002, "{read}");
    }
}
