//! Reading a YAML front matter within bounds fixed before any of it is
//! expanded. YAML lets a small text stand for a huge value (an anchored
//! list referenced by every item of another, and so on), and its parser
//! spends time in proportion to flow nesting for every token within it;
//! a prompt file needs neither. So the front matter's size and its flow
//! brackets are counted before it is parsed, and the values it holds are
//! counted as they are read (aliases included, each time they are
//! expanded), the reading stopping at the first value past the bound.
//! The keys other tools read are walked but never built.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use yaml_serde::{Mapping, Value};

/// The largest front matter read: 64 KiB.
pub(crate) const MAX_BYTES: usize = 64 * 1024;

/// The most flow brackets (`[`, `{`) a front matter may hold.
pub(crate) const MAX_FLOW_BRACKETS: usize = 256;

/// The most values (scalars, lists, maps, each expansion of an alias
/// counted again) a front matter may hold.
pub(crate) const MAX_VALUES: usize = 10_000;

/// How deep lists and maps may nest in a front matter.
pub(crate) const MAX_DEPTH: usize = 64;

/// The most bytes of text (keys and strings) a front matter may expand
/// to, each use of an alias counted again: four times the largest front
/// matter. Counting values alone would let 10,000 aliases of one long
/// string stand for hundreds of megabytes.
pub(crate) const MAX_TEXT_BYTES: usize = 4 * MAX_BYTES;

/// What a front matter may still expand to.
struct Left {
    values: Cell<usize>,
    text_bytes: Cell<usize>,
}

/// What is wrong with `front` before it is parsed, if anything: too
/// large, or too many flow brackets (and the 0-based line of the first
/// past the bound).
pub(crate) fn check_size(front: &str) -> Result<(), (Option<usize>, String)> {
    if front.len() > MAX_BYTES {
        return Err((
            None,
            format!("front matter: larger than {} KiB", MAX_BYTES / 1024),
        ));
    }
    // Counted wherever they stand, in quotes too: never fewer than YAML
    // sees.
    let mut brackets = front.match_indices(['[', '{']);
    if let Some((at, _)) = brackets.nth(MAX_FLOW_BRACKETS) {
        let line = front[..at].matches('\n').count();
        return Err((
            Some(line),
            format!("front matter: more than {MAX_FLOW_BRACKETS} `[` and `{{`"),
        ));
    }
    // Flow nesting past the depth bound is refused here too, before the
    // parser spends its time on every token inside it (what nesting costs
    // it most). The top-level map is the first level, so a flow value in
    // it starts at the second. Counted in quotes too, like the brackets:
    // only a quoted run of more than 62 unclosed brackets is refused for
    // less than YAML would see.
    let mut open = 1usize;
    for (at, bracket) in front.match_indices(['[', '{', ']', '}']) {
        if matches!(bracket, "[" | "{") {
            open += 1;
            if open > MAX_DEPTH {
                let line = front[..at].matches('\n').count();
                return Err((
                    Some(line),
                    format!("front matter: nested more than {MAX_DEPTH} deep"),
                ));
            }
        } else {
            open = open.saturating_sub(1).max(1);
        }
    }
    Ok(())
}

/// The top-level map of `front`, each key's value built unless `ignored`
/// says the key is another tool's (then it is walked, and counted, only,
/// and reads as null).
pub(crate) fn read(
    front: &str,
    ignored: impl Fn(&str) -> bool,
) -> Result<BTreeMap<String, Value>, yaml_serde::Error> {
    let left = Left {
        values: Cell::new(MAX_VALUES),
        text_bytes: Cell::new(MAX_TEXT_BYTES),
    };
    let top = Top {
        left: &left,
        ignored: &ignored,
    };
    top.deserialize(yaml_serde::Deserializer::from_str(front))
}

/// The front matter's top level: a map, or nothing.
struct Top<'a> {
    left: &'a Left,
    ignored: &'a dyn Fn(&str) -> bool,
}

impl<'de> DeserializeSeed<'de> for Top<'_> {
    type Value = BTreeMap<String, Value>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = BTreeMap<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of keys to values")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(BTreeMap::new())
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(BTreeMap::new())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut read = BTreeMap::new();
        let node = |keep| Node {
            left: self.left,
            depth: 1,
            keep,
        };
        while let Some(key) = map.next_key_seed(node(true))? {
            let Some(Value::String(key)) = key else {
                return Err(de::Error::custom("front matter keys are text"));
            };
            if read.contains_key(&key) {
                return Err(duplicate(&Value::String(key)));
            }
            let keep = !(self.ignored)(&key);
            // An ignored key's value is walked, not built: it reads as null.
            let value = map.next_value_seed(node(keep))?;
            read.insert(key, value.unwrap_or(Value::Null));
        }
        Ok(read)
    }
}

/// One value, counted against what is left, built if `keep`.
struct Node<'a> {
    left: &'a Left,
    depth: usize,
    keep: bool,
}

impl Node<'_> {
    /// Counts one value: an error past the bound.
    fn count<E: de::Error>(&self) -> Result<(), E> {
        match self.left.values.get().checked_sub(1) {
            Some(left) => {
                self.left.values.set(left);
                Ok(())
            }
            None => Err(E::custom(format!(
                "more than {MAX_VALUES} values (anchors and aliases count each time they are used)"
            ))),
        }
    }

    /// The node one level down, an error past the bound.
    fn below<E: de::Error>(&self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format!("nested more than {MAX_DEPTH} deep")));
        }
        Ok(Node {
            left: self.left,
            depth: self.depth + 1,
            keep: self.keep,
        })
    }

    /// Counts `text`'s bytes: an error past the bound.
    fn text<E: de::Error>(&self, text: &str) -> Result<(), E> {
        match self.left.text_bytes.get().checked_sub(text.len()) {
            Some(left) => {
                self.left.text_bytes.set(left);
                Ok(())
            }
            None => Err(E::custom(format!(
                "more than {} KiB of text (anchors and aliases count each time they are used)",
                MAX_TEXT_BYTES / 1024
            ))),
        }
    }

    fn scalar<E: de::Error>(&self, value: impl FnOnce() -> Value) -> Result<Option<Value>, E> {
        self.count()?;
        Ok(self.keep.then(value))
    }
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Option<Value>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    /// The value, when kept.
    type Value = Option<Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        self.scalar(|| Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        self.scalar(|| Value::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        self.scalar(|| Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.scalar(|| Value::Number(v.into()))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        self.text(v)?;
        self.scalar(|| Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        self.text(&v)?;
        self.scalar(|| Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.scalar(|| Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.scalar(|| Value::Null)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, inner: D) -> Result<Self::Value, D::Error> {
        inner.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        self.count()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.below()?)? {
            if let Some(item) = item {
                items.push(item);
            }
        }
        Ok(self.keep.then_some(Value::Sequence(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        self.count()?;
        let mut entries = Mapping::new();
        while let Some(key) = map.next_key_seed(self.below()?)? {
            let value = map.next_value_seed(self.below()?)?;
            if let (Some(key), Some(value)) = (key, value) {
                if entries.contains_key(&key) {
                    return Err(duplicate(&key));
                }
                entries.insert(key, value);
            }
        }
        Ok(self.keep.then_some(Value::Mapping(entries)))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, tagged: A) -> Result<Self::Value, A::Error> {
        if self.keep {
            return Err(de::Error::custom(
                "YAML tags (`!name`) are not read in front matter",
            ));
        }
        // Another tool's tagged value is its own affair: walked and
        // counted as the rest, never read.
        let (_tag, value) = tagged.variant::<de::IgnoredAny>()?;
        de::VariantAccess::newtype_variant_seed(value, self)
    }
}

/// A key given twice in one map, refused as YAML refuses it.
fn duplicate<E: de::Error>(key: &Value) -> E {
    match key {
        Value::String(key) => E::custom(format!("the key `{key}` is given twice")),
        _ => E::custom("a key is given twice"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keep_all(front: &str) -> Result<BTreeMap<String, Value>, String> {
        read(front, |_| false).map_err(|e| e.to_string())
    }

    #[test]
    fn values_are_read_as_yaml_reads_them() {
        let front = "title: x\ntags: [a, b]\ninput:\n  schema:\n    n?: integer\n  default: {n: 3}\nflag: true\nnothing:\n";
        let ours = keep_all(front).unwrap();
        let theirs: BTreeMap<String, Value> = yaml_serde::from_str(front).unwrap();
        assert_eq!(ours, theirs);
        assert!(keep_all("").unwrap().is_empty());
        assert!(keep_all("- a\n").is_err());
        // A key given twice, at the top or below, is refused as YAML does.
        assert!(
            keep_all("title: a\ntitle: b\n")
                .unwrap_err()
                .contains("`title` is given twice")
        );
        let schema = "input:\n  schema:\n    a: string\n    a: integer\n";
        assert!(keep_all(schema).unwrap_err().contains("`a` is given twice"));
        assert!(yaml_serde::from_str::<Value>(schema).is_err());
    }

    #[test]
    fn tags_are_refused_in_our_keys_and_walked_in_others() {
        let tagged =
            "title: x\nmetadata:\n  when: !date 2026-12-03\n  what: !custom {a: [1, !x 2]}\n";
        let read_ours =
            |front: &str| read(front, |key| key == "metadata").map_err(|e| e.to_string());
        let ours = read_ours(tagged).unwrap();
        assert_eq!(ours["title"], Value::String("x".into()));
        assert_eq!(ours["metadata"], Value::Null);
        let refused = read_ours("title: !custom x\n").unwrap_err();
        assert!(refused.contains("YAML tags"), "{refused}");
        // Walked, so counted and bounded.
        let deep = format!("metadata: !t {}x{}", "[".repeat(70), "]".repeat(70));
        assert!(
            read_ours(&deep)
                .unwrap_err()
                .contains("nested more than 64")
        );
    }

    #[test]
    fn a_billion_laughs_stops_at_the_bound() {
        use std::fmt::Write as _;
        let mut front = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (name, before) in ["b", "c", "d", "e", "f", "g"]
            .iter()
            .zip(["a", "b", "c", "d", "e", "f"])
        {
            let aliases = vec![format!("*{before}"); 10].join(", ");
            writeln!(front, "{name}: &{name} [{aliases}]").unwrap();
        }
        let error = keep_all(&front).unwrap_err();
        assert!(error.contains("more than 10000 values"), "{error}");
        // Under a key another tool reads, it is counted all the same.
        let ignored = front.replace("g:", "metadata:");
        let error = read(&ignored, |key| key == "metadata")
            .unwrap_err()
            .to_string();
        assert!(error.contains("more than 10000 values"), "{error}");
    }

    #[test]
    fn aliases_of_a_long_string_stop_at_the_text_bound() {
        // 62 KiB of front matter that would stand for 10,000 copies of a
        // 6,000-byte string: 60 MB, under the value bound.
        let aliases = vec!["*a"; 9_990].join(",");
        let front = format!("t: &a \"{}\"\nb: [{aliases}]\n", "A".repeat(6_000));
        assert!(front.len() < MAX_BYTES && check_size(&front).is_ok());
        let error = keep_all(&front).unwrap_err();
        assert!(error.contains("KiB of text"), "{error}");
        // A key another tool reads counts too.
        let other = front.replace("b:", "metadata:");
        let error = read(&other, |key| key == "metadata")
            .unwrap_err()
            .to_string();
        assert!(error.contains("KiB of text"), "{error}");
        // Text within the bound, aliases included, reads as before.
        let few = format!("t: &a \"{}\"\nb: [*a, *a]\n", "A".repeat(6_000));
        assert_eq!(keep_all(&few).unwrap()["b"].as_sequence().unwrap().len(), 2);
    }

    #[test]
    fn nesting_and_size_are_bounded() {
        let deep = format!("a: {}x{}", "[".repeat(70), "]".repeat(70));
        assert!(keep_all(&deep).unwrap_err().contains("nested more than 64"));
        let brackets = format!("a: b\nc: {}", "[".repeat(300));
        assert_eq!(check_size(&brackets).unwrap_err().0, Some(1));
        assert!(check_size(&"x".repeat(MAX_BYTES + 1)).is_err());
        assert!(check_size("a: [1, {b: 2}]").is_ok());
        // Flow nesting past the bound is refused before parsing, on the
        // line where it goes past; up to the bound it is left to the parse.
        let too_deep = format!("a: b\nc: {}", "[".repeat(MAX_DEPTH));
        assert_eq!(check_size(&too_deep).unwrap_err().0, Some(1));
        let at_bound = format!(
            "c: {}x{}",
            "[".repeat(MAX_DEPTH - 1),
            "]".repeat(MAX_DEPTH - 1)
        );
        assert!(check_size(&at_bound).is_ok());
        let side_by_side = "c: [[1], [2], [3]]\n".repeat(60);
        assert!(check_size(&side_by_side).is_ok());
    }
}
