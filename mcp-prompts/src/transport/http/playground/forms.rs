//! What the page knows of each prompt beyond `prompts/list`: its arguments
//! as a JSON Schema form (types, bounds, choices, defaults, examples, which
//! ones complete), and whether the prompt tools offer it. Only the prompts
//! the caller may see are in it, as in `prompts/list`.

use serde_json::{Map, Value, json};

use crate::caller::Access;
use crate::catalog::{ArgCompletion, ArgInfo};
use crate::elicit::form::form_schema;
use crate::protocol::ProtocolVersion;
use crate::server::Service;

/// `{"prompts": {NAME: {"schema": .., "order": [..], "asTool": ..}}}` for
/// the prompts `access` may see; `order` lists the arguments as declared
/// (a schema's properties are a map, in no order).
pub(super) fn forms(service: &Service, access: &Access) -> Value {
    let served = service.snapshot();
    let mut prompts = Map::new();
    for prompt in served.prompts() {
        let Some(entry) = served.get(prompt.name(), access) else {
            continue;
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
    json!({ "prompts": prompts })
}
