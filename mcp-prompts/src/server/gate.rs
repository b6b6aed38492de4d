//! The table's gates: a method is served in a request's era only if that
//! era's revisions have it and the server declares the capability it
//! needs; anything else is -32601, as for a method nobody knows.

use super::Service;
use crate::error::Error;
use crate::protocol::method::{Capability, Method};

impl Service {
    /// The method the request names, if the request's revision has it
    /// (`method` is `None` if not) and the server declares the capability
    /// it needs; else -32601.
    pub(crate) fn serves(&self, name: &str, method: Option<Method>) -> Result<Method, Error> {
        self.declared(method.ok_or_else(|| Error::method_not_found(name))?)
    }

    /// The 2026-07-28 method `name`, if that revision has it and the
    /// server declares what it needs; else -32601.
    #[cfg(feature = "http")]
    pub(crate) fn serves_stateless(&self, name: &str) -> Result<Method, Error> {
        self.serves(name, Method::from_name(name).filter(|m| m.in_stateless()))
    }

    /// `method`, if the server declares the capability it needs; else
    /// -32601.
    pub(crate) fn declared(&self, method: Method) -> Result<Method, Error> {
        match method.capability() {
            Some(capability) if !self.declares(capability) => Err(Error::new(
                Error::METHOD_NOT_FOUND,
                format!(
                    "{} is not supported: this server declares no {}",
                    method.name(),
                    capability.name()
                ),
            )),
            _ => Ok(method),
        }
    }

    /// Whether the server declares `capability`.
    pub(crate) fn declares(&self, capability: Capability) -> bool {
        let declared = self.0.info.declared;
        match capability {
            Capability::Prompts | Capability::Logging => true,
            Capability::Completions => declared.completions,
            Capability::Tools => declared.tools,
            Capability::Resources => declared.resources(),
            Capability::Skills => declared.skills(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::server::Server;

    #[test]
    fn a_method_behind_an_undeclared_capability_is_not_found() {
        use crate::protocol::method::Method;
        let nothing = std::iter::empty::<crate::catalog::AnyPrompt>();
        let service = Server::new("t", "1").prompts(nothing).build().unwrap();
        let complete = Some(Method::CompletionComplete);
        let error = service.serves("completion/complete", complete).unwrap_err();
        assert_eq!(error.code(), crate::error::Error::METHOD_NOT_FOUND);
        assert!(
            error.message().contains("declares no completions"),
            "{error:?}"
        );
        let error = service.serves("tools/list", None).unwrap_err();
        assert_eq!(error.code(), crate::error::Error::METHOD_NOT_FOUND);
        let list = Some(Method::PromptsList);
        assert_eq!(service.serves("prompts/list", list).ok(), list);
        // What the stateless HTTP endpoint answers 404: a method the
        // revision lacks, or one behind an undeclared capability.
        assert_eq!(service.serves_stateless("prompts/list").ok(), list);
        for name in ["ping", "logging/setLevel", "completion/complete"] {
            let error = service.serves_stateless(name).unwrap_err();
            assert_eq!(
                error.code(),
                crate::error::Error::METHOD_NOT_FOUND,
                "{name}"
            );
        }
        let nothing = std::iter::empty::<crate::catalog::AnyPrompt>();
        let service = Server::new("t", "1")
            .prompts(nothing)
            .completions()
            .build()
            .unwrap();
        assert_eq!(
            service.serves("completion/complete", complete).ok(),
            complete
        );
    }
}
