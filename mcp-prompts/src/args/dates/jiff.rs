//! `jiff`'s civil dates and times, instants and zoned date-times, parsed
//! by their `FromStr` (ISO 8601, RFC 3339 and RFC 9557).

use jiff::civil::{Date, DateTime, Time};
use jiff::{Timestamp, Zoned};

/// Parses with `FromStr`, the crate's own words as the reason.
fn from_str<T: std::str::FromStr<Err = jiff::Error>>(value: &str) -> Result<T, String> {
    value.parse().map_err(|err: jiff::Error| err.to_string())
}

date_arg!(
    Date,
    "a date such as 2026-07-28",
    "YYYY-MM-DD",
    Some("date"),
    from_str
);
date_arg!(Time, "a time such as 14:30:00", "HH:MM:SS", None, from_str);
date_arg!(
    DateTime,
    "a date and time such as 2026-07-28T14:30:00",
    "YYYY-MM-DDTHH:MM:SS",
    None,
    from_str
);
date_arg!(
    Timestamp,
    "an instant such as 2026-07-28T14:30:00Z",
    "RFC 3339",
    Some("date-time"),
    from_str
);
// A zone's name in brackets is not RFC 3339, so no form `format`.
date_arg!(
    Zoned,
    "a date and time in a time zone such as 2026-07-28T14:30:00+02:00[Europe/Paris]",
    "RFC 9557",
    None,
    from_str
);
