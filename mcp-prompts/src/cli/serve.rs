//! `serve DIR...`: the catalog, with the folders' prompt files and skills,
//! served over stdio or Streamable HTTP until stdin ends or a signal.

use std::io::{Error, ErrorKind};

use super::args::Serve;
use super::escape;
use super::folders::Folders;
use crate::server::Server;
use crate::telemetry::otel::prometheus::Prometheus;
use crate::transport::http::{HttpOptions, Playground, verify_issuer_tokens};

/// The environment variable holding the key that signs question rounds.
const REQUEST_STATE_SECRET: &str = "MCP_PROMPTS_REQUEST_STATE_SECRET";

/// Serves as `serve` asks; `name` heads the start message. `metrics` are
/// served at `/metrics` over HTTP.
pub(super) async fn run(
    mut server: Server,
    serve: Serve,
    name: &str,
    metrics: Option<Prometheus>,
) -> std::io::Result<()> {
    // Listened for from now on: a signal sent once the start message is
    // out stops the server gracefully.
    let stop = crate::transport::shutdown_signal();
    if serve.prompts_as_tools {
        server = server.prompts_as_tools();
    }
    if serve.skills_as_prompts {
        server = server.skills_as_prompts();
    }
    if let Some(limit) = serve.max_result_bytes {
        server = server.max_result_bytes(limit);
    }
    if let Some(limit) = serve.max_unsent_bytes {
        server = server.max_unsent_bytes(limit);
    }
    if let Some(secret) = std::env::var_os(REQUEST_STATE_SECRET) {
        server = server.request_state_secret(secret.as_encoded_bytes());
    }
    // Agent Skills in the folders, and in a repository's `.claude/skills`
    // (hidden, so the folder's own search passes it by); what is not read
    // of a repository said first.
    #[cfg(feature = "registry")]
    let sources = {
        let mut dirs = serve.dirs.clone();
        if let Some(url) = &serve.registry.registry {
            let label = serve.registry.label.as_deref();
            let label = label.unwrap_or(crate::registry::DEFAULT_LABEL);
            dirs.push(format!("{url}#{label}").into());
        }
        for (label, scope) in &serve.registry.label_scopes {
            server = server.label_scope(label.clone(), scope.clone());
        }
        let registries: Vec<_> = (dirs.iter())
            .filter(|dir| super::folders::is_registry(dir))
            .cloned()
            .collect();
        super::folders::check_dirs(&registries)?;
        dirs
    };
    #[cfg(not(feature = "registry"))]
    let sources = serve.dirs.clone();
    let folders = Folders::of(&sources);
    #[cfg(feature = "registry")]
    let folders = folders.serving();
    folders.tell(name);
    // Each file that cannot be served, or is served with a warning, is
    // logged as it is read. One catalog: a name a folder read earlier
    // serves is a problem of the later one.
    let (service, dirs) = super::folders::load(server, &folders)?;
    let skills = counted(service.skill_count(), "skill", "skills");
    let skills = match (service.skill_count(), service.skill_problems().len()) {
        (0, 0) => String::new(),
        (_, 0) => format!(" and {skills}"),
        (_, broken) => format!(" and {skills} ({broken} not served: above)"),
    };
    let broken: usize = dirs.iter().map(|dir| dir.problems().len()).sum();
    let warned: usize = dirs.iter().map(|dir| dir.warnings().len()).sum();
    // The catalog's own prompts, and the files'.
    let mut count = counted(service.prompt_count(), "prompt", "prompts");
    if broken > 0 {
        let files = counted(broken, "file", "files");
        count = format!("{count} ({files} not served: above)");
    }
    if warned > 0 {
        let warnings = counted(warned, "warning", "warnings");
        count = format!("{count} with {warnings} (above)");
    }
    count.push_str(&skills);
    let Some(addr) = serve.http else {
        eprintln!(
            "{name}: serving {count} over stdio ({})",
            escape::line(&folders.describe())
        );
        return service.serve_stdio_until(stop).await;
    };
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let options = http_options(&serve, &sources, bound, (metrics, name))?;
    eprintln!(
        "{name}: serving {count} at http://{bound}{} ({}); Ctrl-C stops",
        crate::transport::http::DEFAULT_PATH,
        escape::line(&folders.describe())
    );
    if serve.over_http.playground {
        eprintln!("{name}: try the prompts at http://{bound}/playground");
    }
    service.serve_http_on(listener, options, stop).await
}

/// The HTTP options `serve` asks for, on `bound`, serving `dirs` (folders
/// and a registry's `URL#LABEL`).
fn http_options(
    serve: &Serve,
    dirs: &[std::path::PathBuf],
    bound: std::net::SocketAddr,
    (metrics, name): (Option<Prometheus>, &str),
) -> std::io::Result<HttpOptions> {
    let mut options = HttpOptions::for_addr(bound);
    if serve.over_http.stateless {
        options = options.stateless();
    }
    if let Some(delay) = serve.drain_delay {
        options = options.drain_delay(delay);
    }
    if let Some(metrics) = metrics {
        options = options.metrics(metrics);
    }
    // Not ready while a folder is gone or cannot be read (unmounted, its
    // permissions changed): its prompts are then gone from the catalog.
    // Another failure (out of file descriptors) says nothing of the folder.
    // A registry keeps serving what it read while it cannot be reached.
    let folders: Vec<_> = (dirs.iter())
        .filter(|dir| !super::folders::is_registry(dir))
        .cloned()
        .collect();
    options = options.ready_when(move || {
        folders
            .iter()
            .try_for_each(|dir| match std::fs::read_dir(dir) {
                Err(err) if folder_gone(&err) => Err(format!(
                    "{}: {err}",
                    escape::line(&dir.display().to_string())
                )),
                _ => Ok(()),
            })
    });
    if let Some(issuer) = &serve.auth.issuer {
        let auth = &serve.auth;
        // Tokens name the URL clients use, which an address like 0.0.0.0
        // is not.
        let resource = match (&auth.audience, bound.ip().is_unspecified()) {
            (Some(audience), _) => audience.clone(),
            (None, false) => format!("http://{bound}{}", crate::transport::http::DEFAULT_PATH),
            (None, true) => {
                return Err(Error::new(
                    ErrorKind::InvalidInput,
                    format!("--http {bound} is no URL a token names: add --auth-audience URL"),
                ));
            }
        };
        options = verify_issuer_tokens(options, issuer, resource, auth.jwks.as_deref())
            .map_err(|e| Error::new(ErrorKind::InvalidInput, e))?;
    }
    if serve.over_http.playground {
        // "Copy as command" renders through this binary, over these folders.
        let mut command = format!("{name} render");
        for dir in dirs {
            command.push_str(" --dir ");
            // A registry's password is never shown.
            let shown = super::folders::shown(dir);
            command.push_str(&shell_word(&shown));
        }
        options = options.playground(Playground::new().render_command(command));
    }
    Ok(options)
}

/// Whether reading a folder failed because it is gone or closed to us.
fn folder_gone(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        ErrorKind::NotFound | ErrorKind::PermissionDenied | ErrorKind::NotADirectory
    )
}

/// `text` as one shell word: as it is when it needs no quoting.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=@%+-".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// `n` things: `1 prompt`, `2 prompts`, `0 prompts`.
fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(counted(1, "skill", "skills"), "1 skill");
        assert_eq!(counted(0, "prompt", "prompts"), "0 prompts");
        assert_eq!(counted(9, "prompt", "prompts"), "9 prompts");
    }
}
