//! `time`'s dates, times and date-times, parsed with its ISO 8601 and RFC
//! 3339 descriptions (its `Display` is not one of them, so a typed
//! builder's value is written in them too).

use time::format_description::well_known::{Iso8601, Rfc3339};
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

date_arg!(
    Date,
    "a date such as 2026-07-28",
    "YYYY-MM-DD",
    Some("date"),
    |value| Date::parse(value, &Iso8601::DATE).map_err(|err| err.to_string())
);
date_arg!(Time, "a time such as 14:30:00", "HH:MM:SS", None, |value| {
    Time::parse(value, &Iso8601::TIME).map_err(|err| err.to_string())
});
date_arg!(
    PrimitiveDateTime,
    "a date and time such as 2026-07-28T14:30:00",
    "YYYY-MM-DDTHH:MM:SS",
    None,
    |value| PrimitiveDateTime::parse(value, &Iso8601::DATE_TIME).map_err(|err| err.to_string()),
    |value| format!("{}T{}", value.date(), value.time())
);
date_arg!(
    OffsetDateTime,
    "a date and time with an offset such as 2026-07-28T14:30:00+02:00",
    "RFC 3339",
    Some("date-time"),
    |value| OffsetDateTime::parse(value, &Rfc3339).map_err(|err| err.to_string()),
    |value| value.format(&Rfc3339).unwrap_or_else(|_| value.to_string())
);
