//! `chrono`'s dates, times and date-times, parsed by their `FromStr`.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};

/// Parses with `FromStr`, the crate's own words as the reason.
fn from_str<T: std::str::FromStr<Err = chrono::ParseError>>(value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|err: chrono::ParseError| err.to_string())
}

date_arg!(
    NaiveDate,
    "a date such as 2026-07-28",
    "YYYY-MM-DD",
    Some("date"),
    from_str
);
date_arg!(
    NaiveTime,
    "a time such as 14:30:00",
    "HH:MM:SS",
    None,
    from_str
);
date_arg!(
    NaiveDateTime,
    "a date and time such as 2026-07-28T14:30:00",
    "YYYY-MM-DDTHH:MM:SS",
    None,
    from_str,
    |value| value.format("%Y-%m-%dT%H:%M:%S%.f").to_string()
);
date_arg!(
    DateTime<FixedOffset>,
    "a date and time with an offset such as 2026-07-28T14:30:00+02:00",
    "RFC 3339",
    Some("date-time"),
    from_str,
    DateTime::to_rfc3339
);
date_arg!(
    DateTime<Utc>,
    "a date and time with an offset such as 2026-07-28T14:30:00Z",
    "RFC 3339",
    Some("date-time"),
    from_str,
    DateTime::to_rfc3339
);
