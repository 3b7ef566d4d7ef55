//! A model from a Hugging Face link: what the import box accepts, the URLs it reads, and what
//! their answers mean. The page makes these requests only when the user asks it to import from
//! the Hub (`import-url-apply`); opening a link with `src=` fetches nothing.
//!
//! The box takes a repository id (`org/name`), or a `huggingface.co` or `hf.co` URL of a
//! repository, of a file in it (`/blob/<rev>/<path>`, `/resolve/<rev>/<path>`) or of a folder
//! (`/tree/<rev>/…`). A GGUF file's header is read with HTTP Range requests, growing as the
//! parser asks; a split GGUF (`…-00001-of-00003.gguf`) has every shard's header read. A
//! repository's `config.json` is read whole, and its GGUF files are listed to choose from.

/// The Hub's host.
pub const HUB: &str = "https://huggingface.co";

/// The longest repository id part the Hub allows (and more than any has).
const MAX_PART: usize = 96;

/// A repository, or a file in one, and the revision to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// `org/name`.
    pub repo: String,
    /// A path inside the repository (`model-Q4_K_M.gguf`, `sub/dir/x.gguf`).
    pub file: Option<String>,
    /// Branch, tag or commit (`main` unless the URL named one).
    pub revision: String,
}

fn part_ok(p: &str) -> bool {
    !p.is_empty()
        && p.len() <= MAX_PART
        && p.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !p.starts_with(['.', '-'])
        && !p.contains("..")
}

fn path_ok(p: &str) -> bool {
    !p.is_empty() && p.len() <= 512 && p.split('/').all(part_ok)
}

impl Source {
    /// What the user typed or pasted into the import box.
    pub fn parse_input(text: &str) -> Result<Source, String> {
        let t = text.trim();
        let rest = ["https://", "http://", ""]
            .iter()
            .find_map(|scheme| {
                let r = t.strip_prefix(scheme)?;
                ["huggingface.co/", "www.huggingface.co/", "hf.co/"]
                    .iter()
                    .find_map(|host| r.strip_prefix(host))
                    .or((scheme.is_empty() && !r.contains("://")).then_some(r))
            })
            .ok_or_else(|| {
                format!(
                    "\"{}\" is not a Hugging Face repository (org/name) or a huggingface.co link",
                    crate::text::shorten(t)
                )
            })?;
        let rest = rest.split(['?', '#']).next().unwrap_or_default().trim_end_matches('/');
        let parts: Vec<&str> = rest.split('/').collect();
        let bad = || {
            format!(
                "\"{}\" is not a repository id (org/name) or a link to one or to a file in one",
                crate::text::shorten(t)
            )
        };
        let (org, name) = match parts.as_slice() {
            [org, name, ..] if part_ok(org) && part_ok(name) => (*org, *name),
            _ => return Err(bad()),
        };
        let repo = format!("{org}/{name}");
        match &parts[2..] {
            [] => Ok(Source {
                repo,
                file: None,
                revision: "main".into(),
            }),
            ["tree", rev, ..] if part_ok(rev) => Ok(Source {
                repo,
                file: None,
                revision: rev.to_string(),
            }),
            ["blob" | "resolve", rev, path @ ..] if part_ok(rev) && !path.is_empty() && path_ok(&path.join("/")) => Ok(Source {
                repo,
                file: Some(path.join("/")),
                revision: rev.to_string(),
            }),
            _ => Err(bad()),
        }
    }

    /// The `src=` value: `org/name` or `org/name/path`.
    pub fn key(&self) -> String {
        match &self.file {
            Some(f) => format!("{}/{f}", self.repo),
            None => self.repo.clone(),
        }
    }

    /// Reads a `src=` value.
    pub fn parse_key(text: &str) -> Result<Source, String> {
        let mut parts = text.splitn(3, '/');
        let (Some(org), Some(name)) = (parts.next(), parts.next()) else {
            return Err("is not org/name or org/name/file.gguf".into());
        };
        let file = parts.next();
        if !part_ok(org) || !part_ok(name) || file.is_some_and(|f| !path_ok(f)) {
            return Err(format!("\"{}\" is not org/name or org/name/file.gguf", crate::text::shorten(text)));
        }
        Ok(Source {
            repo: format!("{org}/{name}"),
            file: file.map(str::to_string),
            revision: "main".into(),
        })
    }

    /// The Hub API's description of the repository (its files, whether it is gated).
    pub fn api_url(&self) -> String {
        format!("{HUB}/api/models/{}/revision/{}", self.repo, self.revision)
    }

    /// A file's download URL (the Hub answers with a redirect to its CDN for large files).
    pub fn file_url(&self, path: &str) -> String {
        format!("{HUB}/{}/resolve/{}/{path}", self.repo, self.revision)
    }

    /// The same source naming `file`.
    pub fn with_file(&self, file: &str) -> Source {
        Source {
            file: Some(file.to_string()),
            ..self.clone()
        }
    }
}

/// A split GGUF's shard names (`x-00001-of-00003.gguf` → the three), or just `file`.
pub fn shards(file: &str) -> Vec<String> {
    let Some(stem) = file.strip_suffix(".gguf") else {
        return vec![file.to_string()];
    };
    let tail: Vec<&str> = stem.rsplitn(4, '-').collect();
    match tail.as_slice() {
        [count, "of", index, base] if count.len() == index.len() && count.len() == 5 => {
            match (index.parse::<u32>(), count.parse::<u32>()) {
                (Ok(_), Ok(n)) if (1..=256).contains(&n) => (1..=n).map(|i| format!("{base}-{i:05}-of-{n:05}.gguf")).collect(),
                _ => vec![file.to_string()],
            }
        }
        _ => vec![file.to_string()],
    }
}

/// The GGUF files of a repository listing, one per model (a split GGUF by its first shard).
pub fn gguf_files(files: &[String]) -> Vec<String> {
    files
        .iter()
        .filter(|f| f.ends_with(".gguf"))
        .filter(|f| shards(f).first() == Some(*f))
        .cloned()
        .collect()
}

/// The file names of the Hub API's repository description (`siblings[].rfilename`).
pub fn listed_files(api_json: &str) -> Result<Vec<String>, String> {
    let v: serde_json::Value =
        serde_json::from_str(api_json).map_err(|_| "the Hub's answer about the repository was not JSON".to_string())?;
    Ok(v.get("siblings")
        .and_then(serde_json::Value::as_array)
        .map(|s| {
            s.iter()
                .filter_map(|f| f.get("rfilename").and_then(serde_json::Value::as_str))
                .take(10_000)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default())
}

/// What an HTTP status from the Hub means for `what` (a repository or a file).
pub fn status_error(status: u16, what: &str) -> Option<String> {
    match status {
        200..=299 => None,
        401 | 403 => Some(format!(
            "{what} is gated or private: the page cannot read it without your Hugging Face login; accept its terms on huggingface.co and download its config.json, then paste it above"
        )),
        404 => Some(format!("{what} was not found on Hugging Face (check the name and the revision)")),
        429 => Some("Hugging Face is limiting requests; try again in a minute".into()),
        s => Some(format!("Hugging Face answered {s} for {what}")),
    }
}

/// The total length from a `Content-Range: bytes 0-1023/123456` header.
pub fn content_range_total(header: &str) -> Option<u64> {
    header.trim().strip_prefix("bytes ")?.rsplit('/').next()?.trim().parse().ok()
}

/// The `Range` header for the first `len` bytes.
pub fn range(len: u64) -> String {
    format!("bytes=0-{}", len.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_takes_ids_and_every_link_form() {
        let repo = Source::parse_input("Qwen/Qwen3-8B").unwrap();
        assert_eq!(
            (repo.repo.as_str(), repo.file.as_deref(), repo.revision.as_str()),
            ("Qwen/Qwen3-8B", None, "main")
        );
        for (text, file, rev) in [
            ("https://huggingface.co/Qwen/Qwen3-8B", None, "main"),
            ("huggingface.co/Qwen/Qwen3-8B/", None, "main"),
            ("https://hf.co/Qwen/Qwen3-8B/tree/main", None, "main"),
            ("https://huggingface.co/Qwen/Qwen3-8B/tree/v1.0/sub", None, "v1.0"),
            (
                "https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json",
                Some("config.json"),
                "main",
            ),
            (
                "https://huggingface.co/Qwen/Qwen3-8B/resolve/abc123/q/x.gguf?download=true",
                Some("q/x.gguf"),
                "abc123",
            ),
        ] {
            let s = Source::parse_input(text).unwrap();
            assert_eq!(
                (s.repo.as_str(), s.file.as_deref(), s.revision.as_str()),
                ("Qwen/Qwen3-8B", file, rev),
                "{text}"
            );
        }
        for bad in [
            "",
            "Qwen",
            "https://example.com/Qwen/Qwen3-8B",
            "Qwen/../x",
            "a/b/blob/main",
            "a/b/c",
            "a/b c",
            "javascript:alert(1)",
        ] {
            assert!(Source::parse_input(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_key_round_trips_and_urls_are_the_hubs() {
        let s = Source::parse_input("https://huggingface.co/unsloth/Qwen3-8B-GGUF/blob/main/Qwen3-8B-Q4_K_M.gguf").unwrap();
        assert_eq!(s.key(), "unsloth/Qwen3-8B-GGUF/Qwen3-8B-Q4_K_M.gguf");
        assert_eq!(Source::parse_key(&s.key()).unwrap(), s);
        assert_eq!(
            s.file_url("x.gguf"),
            "https://huggingface.co/unsloth/Qwen3-8B-GGUF/resolve/main/x.gguf"
        );
        assert_eq!(s.api_url(), "https://huggingface.co/api/models/unsloth/Qwen3-8B-GGUF/revision/main");
        assert!(Source::parse_key("a").is_err());
        assert!(Source::parse_key("a/b/../c").is_err());
    }

    #[test]
    fn split_ggufs_name_every_shard() {
        assert_eq!(
            shards("m/Q4_K_M/x-Q4_K_M-00001-of-00003.gguf"),
            [
                "m/Q4_K_M/x-Q4_K_M-00001-of-00003.gguf",
                "m/Q4_K_M/x-Q4_K_M-00002-of-00003.gguf",
                "m/Q4_K_M/x-Q4_K_M-00003-of-00003.gguf"
            ]
        );
        assert_eq!(shards("x-Q4_K_M.gguf"), ["x-Q4_K_M.gguf"]);
        let files: Vec<String> = ["a-00001-of-00002.gguf", "a-00002-of-00002.gguf", "b.gguf", "README.md"]
            .map(String::from)
            .to_vec();
        assert_eq!(gguf_files(&files), ["a-00001-of-00002.gguf", "b.gguf"]);
    }

    #[test]
    fn answers_are_read_and_errors_say_what_to_do() {
        assert_eq!(content_range_total("bytes 0-1048575/4920734208"), Some(4_920_734_208));
        assert_eq!(content_range_total("bytes */100"), Some(100));
        assert_eq!(range(1024), "bytes=0-1023");
        assert!(status_error(401, "x").unwrap().contains("paste it"));
        assert!(status_error(404, "x").unwrap().contains("not found"));
        assert_eq!(status_error(206, "x"), None);
        let files = listed_files(r#"{"siblings":[{"rfilename":"config.json"},{"rfilename":"a.gguf"}]}"#).unwrap();
        assert_eq!(files, ["config.json", "a.gguf"]);
        assert!(listed_files("<html>").is_err());
    }
}
