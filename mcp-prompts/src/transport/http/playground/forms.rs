//! What the page knows of each prompt beyond `prompts/list`: its arguments
//! as a JSON Schema form (types, bounds, choices, defaults, examples, which
//! ones complete), and whether the prompt tools offer it. Only the prompts
//! the caller may see are in it, as in `prompts/list`.

use crate::protocol::language::Language;
use serde_json::{Map, Value, json};

use crate::caller::Access;
use crate::catalog::{ArgCompletion, ArgInfo};
use crate::elicit::form::form_schema;
use crate::protocol::ProtocolVersion;
use crate::server::Service;

/// `{"prompts": {NAME: {"schema": .., "order": [..], "asTool": ..}},
/// "languages": [..]}` for the prompts `access` may see, each in the
/// language `preference` picks for it; `order` lists the arguments as
/// declared (a schema's properties are a map, in no order); `languages`
/// are those the page may offer, the default first.
pub(super) fn forms(service: &Service, access: &Access, preference: Option<&str>) -> Value {
    let served = service.snapshot();
    let default = service.default_language();
    let wanted = preference.and_then(|text| served.wanted(text, default));
    let mut prompts = Map::new();
    for prompt in served.prompts() {
        let Some(entry) = served.get(prompt.name(), access) else {
            continue;
        };
        let prompt = match wanted {
            Some(wanted) => entry.in_language(&wanted, served.languages()).0,
            None => prompt,
        };
        let arguments = prompt.arguments();
        let mut schema = form_schema(arguments.iter().cloned(), ProtocolVersion::MODERN);
        if let Some(fields) = schema["properties"].as_object_mut() {
            for arg in &arguments {
                let Some(field) = fields.get_mut(arg.name()) else {
                    continue;
                };
                if let Some(example) = arg.example() {
                    field["examples"] = json!([example]);
                }
                if let Some(format) = arg.format() {
                    field["x-format"] = json!(format);
                }
                let completes = entry
                    .completion(arg.name())
                    .is_some_and(|c| !matches!(c, ArgCompletion::Nothing));
                if completes {
                    field["x-completes"] = json!(true);
                }
            }
        }
        let order: Vec<&str> = arguments
            .iter()
            .filter(|arg| !arg.injected())
            .map(ArgInfo::name)
            .collect();
        prompts.insert(
            prompt.name().to_owned(),
            json!({ "schema": schema, "order": order, "asTool": entry.as_tool() }),
        );
    }
    // A translation into the default language is never served: not offered.
    let languages: Vec<&str> = std::iter::once(default)
        .chain(served.languages().iter().filter(|l| *l != default))
        .map(Language::as_str)
        .collect();
    json!({ "prompts": prompts, "languages": languages })
}
