//! The catalogs as records whose fields are looked up by their header's name. `data/*.csv` is
//! read with the `csv` crate; the page's copies (build.rs) are one record a line with fields
//! separated by the ASCII unit separator, which the page splits.

/// One parsed record: its 1-based line number and its fields looked up by header name.
pub struct Record<'a> {
    pub line: usize,
    header: &'a [String],
    fields: Vec<String>,
}

impl Record<'_> {
    /// The raw text of column `name` ("" when the column is absent).
    pub fn text(&self, name: &str) -> &str {
        self.header
            .iter()
            .position(|h| h == name)
            .and_then(|i| self.fields.get(i))
            .map_or("", |f| f.trim())
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
        crate::text::decimal::parse(t)
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

/// Records as (line number, fields).
pub type Rows = Vec<(usize, Vec<String>)>;

/// Splits one CSV text into its header and records (the `csv` crate: RFC 4180 quoting), each with
/// the line it starts on. Blank lines are skipped; every record must have the header's width.
#[cfg(not(target_arch = "wasm32"))]
pub fn parse(text: &str) -> Result<(Vec<String>, Rows), String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| e.to_string())?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        rows.push((line, record.iter().map(str::to_string).collect()));
    }
    split_header(rows)
}

/// The page's copies: a record a line, fields separated by the unit separator (build.rs).
#[cfg(target_arch = "wasm32")]
pub fn parse(text: &str) -> Result<(Vec<String>, Rows), String> {
    let rows = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| (i + 1, l.split('\x1f').map(str::to_string).collect()))
        .collect();
    split_header(rows)
}

/// The first record as the header; every other must be as wide.
fn split_header(mut rows: Rows) -> Result<(Vec<String>, Rows), String> {
    if rows.is_empty() {
        return Err("empty file".into());
    }
    let (_, header) = rows.remove(0);
    let header: Vec<String> = header.iter().map(|h| h.trim().to_string()).collect();
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

    #[test]
    fn a_short_row_is_an_error_naming_its_line() {
        let e = parse("a,b\n1,2\n3\n").unwrap_err();
        assert!(e.contains("line 3"), "{e}");
        let e = parse("a,b\n\"x,\"y\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
    }
}
