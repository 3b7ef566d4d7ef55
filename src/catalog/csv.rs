//! A small CSV reader for the catalogs (RFC 4180 quoting: `"a, b"` and `""` for a quote).

use std::borrow::Cow;

/// One parsed record: its 1-based line number and its fields looked up by header name.
pub struct Record<'a> {
    pub line: usize,
    header: &'a [String],
    fields: Vec<Cow<'a, str>>,
}

impl Record<'_> {
    /// The raw text of column `name` ("" when the column is absent).
    pub fn text(&self, name: &str) -> &str {
        self.header
            .iter()
            .position(|h| h == name)
            .and_then(|i| self.fields.get(i))
            .map_or("", |s| s.as_ref().trim())
    }

    /// The text of `name`, or an error when it is empty.
    pub fn required(&self, name: &str) -> Result<&str, String> {
        let t = self.text(name);
        if t.is_empty() {
            Err(format!("line {}: {name} is empty", self.line))
        } else {
            Ok(t)
        }
    }

    /// Column `name` as a number; empty is `None`.
    pub fn opt_f64(&self, name: &str) -> Result<Option<f64>, String> {
        let t = self.text(name);
        if t.is_empty() {
            return Ok(None);
        }
        crate::decimal::parse(t)
            .filter(|v| v.is_finite())
            .map(Some)
            .ok_or_else(|| format!("line {}: {name} = \"{t}\" is not a number", self.line))
    }

    /// Column `name` as a number, required.
    pub fn f64(&self, name: &str) -> Result<f64, String> {
        self.opt_f64(name)?.ok_or_else(|| format!("line {}: {name} is empty", self.line))
    }

    /// Column `name` as a count; empty is 0.
    pub fn count(&self, name: &str) -> Result<u32, String> {
        let v = self.opt_f64(name)?.unwrap_or(0.0);
        if v < 0.0 || v.fract() != 0.0 || v > u32::MAX as f64 {
            return Err(format!("line {}: {name} = {v} is not a whole count", self.line));
        }
        Ok(v as u32)
    }

    /// Column `name` as `true`/`false`; empty is false.
    pub fn flag(&self, name: &str) -> Result<bool, String> {
        match self.text(name) {
            "" | "false" => Ok(false),
            "true" => Ok(true),
            t => Err(format!("line {}: {name} = \"{t}\" is not true/false", self.line)),
        }
    }
}

/// Records as (line number, fields). Unquoted fields borrow the text; quoted ones are copied.
pub type Rows<'a> = Vec<(usize, Vec<Cow<'a, str>>)>;

/// Splits one CSV text into its header and records. A quote opens or closes a quoted run anywhere
/// in a field; inside one, `""` is a quote and commas and line breaks are text. `\r` outside quotes
/// is dropped. Works on bytes: every delimiter is ASCII, and UTF-8 never uses an ASCII byte inside
/// a multi-byte character, so unquoted fields are slices of the text and quoted ones are copied a
/// run at a time, never a character at a time (the page reads its four catalogs at start-up).
pub fn parse(text: &str) -> Result<(Vec<String>, Rows<'_>), String> {
    let b = text.as_bytes();
    let mut rows = Vec::new();
    let mut row: Vec<Cow<str>> = Vec::new();
    // The field so far: `buf` (once quoting has split it) followed by text[run..i].
    let mut buf: Option<String> = None;
    let mut run = 0;
    let mut quoted = false;
    let mut line = 1;
    let mut row_line = 1;
    let mut i = 0;
    let end_field = |buf: &mut Option<String>, run: usize, i: usize| match buf.take() {
        Some(mut s) => {
            s.push_str(&text[run..i]);
            Cow::Owned(s)
        }
        None => Cow::Borrowed(&text[run..i]),
    };
    let keep_run = |buf: &mut Option<String>, run: usize, i: usize| buf.get_or_insert_with(String::new).push_str(&text[run..i]);
    while i < b.len() {
        match (quoted, b[i]) {
            (true, b'"') if b.get(i + 1) == Some(&b'"') => {
                keep_run(&mut buf, run, i + 1);
                i += 1;
                run = i + 1;
            }
            (true, b'"') => {
                quoted = false;
                keep_run(&mut buf, run, i);
                run = i + 1;
            }
            (true, b'\n') => line += 1,
            (false, b'"') => {
                quoted = true;
                keep_run(&mut buf, run, i);
                run = i + 1;
            }
            (false, b',') => {
                row.push(end_field(&mut buf, run, i));
                run = i + 1;
            }
            (false, b'\r') => {
                keep_run(&mut buf, run, i);
                run = i + 1;
            }
            (false, b'\n') => {
                row.push(end_field(&mut buf, run, i));
                run = i + 1;
                rows.push((row_line, std::mem::take(&mut row)));
                line += 1;
                row_line = line;
            }
            _ => {}
        }
        i += 1;
    }
    if quoted {
        return Err(format!("line {row_line}: unterminated quote"));
    }
    let last = end_field(&mut buf, run, b.len());
    if !last.is_empty() || !row.is_empty() {
        row.push(last);
        rows.push((row_line, row));
    }
    rows.retain(|(_, r)| !(r.len() == 1 && r[0].trim().is_empty()));
    if rows.is_empty() {
        return Err("empty file".into());
    }
    let (_, header) = rows.remove(0);
    let header: Vec<String> = header.into_iter().map(|h| h.trim().to_string()).collect();
    for (line, r) in &rows {
        if r.len() != header.len() {
            return Err(format!("line {line}: {} fields, the header has {}", r.len(), header.len()));
        }
    }
    Ok((header, rows))
}

/// Parses `text` and maps every record through `f`, collecting every error.
pub fn records<T>(text: &str, f: impl Fn(&Record) -> Result<T, String>) -> Result<Vec<T>, String> {
    let (header, rows) = parse(text)?;
    let mut out = Vec::with_capacity(rows.len());
    let mut errors = Vec::new();
    for (line, fields) in rows {
        match f(&Record {
            line,
            header: &header,
            fields,
        }) {
            Ok(v) => out.push(v),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_commas_and_escaped_quotes() {
        let (h, rows) = parse("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n1,2\n").unwrap();
        assert_eq!(h, vec!["a", "b"]);
        assert_eq!(rows[0].1, vec!["x, y", "say \"hi\""]);
        assert_eq!(rows[1].1, vec!["1", "2"]);
    }

    /// The reader as first written, a character at a time: the behaviour the byte reader keeps.
    fn by_chars(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
        let mut rows = Vec::new();
        let (mut field, mut row) = (String::new(), Vec::new());
        let (mut quoted, mut line, mut row_line) = (false, 1, 1);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match (quoted, c) {
                (true, '"') if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                (true, '"') => quoted = false,
                (true, c) => {
                    line += usize::from(c == '\n');
                    field.push(c);
                }
                (false, '"') => quoted = true,
                (false, ',') => row.push(std::mem::take(&mut field)),
                (false, '\r') => {}
                (false, '\n') => {
                    row.push(std::mem::take(&mut field));
                    rows.push((row_line, std::mem::take(&mut row)));
                    line += 1;
                    row_line = line;
                }
                (false, c) => field.push(c),
            }
        }
        if quoted {
            return Err(format!("line {row_line}: unterminated quote"));
        }
        if !field.is_empty() || !row.is_empty() {
            row.push(field);
            rows.push((row_line, row));
        }
        Ok(rows)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// Any text built from the characters that matter (quotes, commas, both line breaks, spaces,
        /// multi-byte letters) splits into the same fields, on the same lines, as character by
        /// character. (Compared before the header and width checks, which both share.)
        #[test]
        fn splits_like_the_character_reader(text in "[a\",\r\n é€]{0,40}") {
            let full = format!("h\n{text}");
            let (ours, theirs) = (parse(&full), by_chars(&full));
            match theirs {
                Err(e) => proptest::prop_assert_eq!(ours.err(), Some(e)),
                Ok(mut rows) => {
                    rows.retain(|(_, r)| !(r.len() == 1 && r[0].trim().is_empty()));
                    rows.remove(0);
                    let widths_agree = rows.iter().all(|(_, r)| r.len() == 1);
                    match ours {
                        Ok((_, got)) => {
                            let got: Vec<(usize, Vec<String>)> =
                                got.into_iter().map(|(l, r)| (l, r.into_iter().map(String::from).collect())).collect();
                            proptest::prop_assert_eq!(got, rows);
                        }
                        Err(e) => proptest::prop_assert!(!widths_agree, "{}", e),
                    }
                }
            }
        }
    }

    #[test]
    fn a_short_row_is_an_error_naming_its_line() {
        let e = parse("a,b\n1,2\n3\n").unwrap_err();
        assert!(e.contains("line 3"), "{e}");
    }
}
