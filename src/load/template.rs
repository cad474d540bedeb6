//! Go/Helm template files among the inputs.
//!
//! A Helm chart's `templates/*.yaml` is not a manifest until `helm template` renders it: read as
//! YAML it fails to parse (`{{- if ... }}` lines) or yields objects named `{{ .Values.name }}`,
//! and before this check a chart anywhere under a walked directory failed the whole run with an
//! input error that cannot be suppressed. A file with a Go template action is therefore not
//! read: found by a walk or a glob it is an info note (shown with `-v`, counted otherwise),
//! named explicitly a warning, since the user asked for that file and gets nothing from it.
//!
//! The test is for Go template actions specifically (`{{ .x }}`, `{{ $x }}`, `{{/* */}}`,
//! `{{- if`, `{{ include`, ...), not any `{{`: kgateway transformation templates (Inja,
//! `{{ request_header("x") }}`) are legitimate values inside manifests dopol reads.

use crate::diag::{Diagnostic, Severity};
use crate::source::Span;
use regex::bytes::Regex;
use std::sync::LazyLock;

/// Go template actions: a field or variable, a comment, a trim marker followed by anything, or
/// a template keyword or common Helm function followed by a space or the end of the action.
static ACTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\{\{(?:-\s|\s*[.$]|\s*/\*|\s*(?:if|else|end|range|with|define|template|block|include|tpl|toYaml|toJson|required|printf|lookup|fail|quote|default|nindent|indent)(?:\s|-?\}\}))",
    )
    .expect("the template action pattern compiles")
});

/// Where a file's first Go template action is: its bytes, up to its `}}` on the same line.
pub fn action(text: &str) -> Option<std::ops::Range<usize>> {
    // Every action starts with `{{`: a file without one (most) needs no regex, whose
    // compilation is a measurable share of a small run.
    let first = memchr::memmem::find(text.as_bytes(), b"{{")?;
    let found = ACTION.find_at(text.as_bytes(), first)?;
    let rest = &text[found.start()..];
    let line_end = rest.find('\n').unwrap_or(rest.len());
    let end = rest[..line_end].find("}}").map_or(line_end, |e| e + 2);
    Some(found.start()..found.start() + end)
}

/// The diagnostic of a template file left out (its action at `span`): a note when a walk or
/// glob found it, a warning when it was named.
pub fn skipped(name: &str, text: &str, span: Span, named: bool) -> Diagnostic {
    let severity = if named {
        Severity::Warning
    } else {
        Severity::Info
    };
    let mut action = &text[span.start as usize..span.end as usize];
    if let Some((cut, _)) = action.char_indices().nth(60) {
        action = &action[..cut];
    }
    Diagnostic::from(super::diags::TemplateSkipped { name, action })
        .with_severity(severity)
        .with_label(span, "template action")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `line:action` of the first action.
    fn found(text: &str) -> Option<String> {
        action(text).map(|r| {
            let line = 1 + text[..r.start].matches('\n').count();
            format!("{line}:{}", &text[r])
        })
    }

    #[test]
    fn go_template_actions_are_found() {
        assert_eq!(
            found("a: 1\nname: {{ .Values.name }}\n").as_deref(),
            Some("2:{{ .Values.name }}")
        );
        assert_eq!(
            found("{{- if .Values.enabled }}\nkind: X\n").as_deref(),
            Some("1:{{- if .Values.enabled }}")
        );
        assert_eq!(found("x: \"{{ $v }}\"").as_deref(), Some("1:{{ $v }}"));
        assert_eq!(found("{{/* c */}}").as_deref(), Some("1:{{/* c */}}"));
        assert_eq!(
            found("  labels: {{ include \"x.labels\" . | nindent 4 }}").as_deref(),
            Some("1:{{ include \"x.labels\" . | nindent 4 }}")
        );
        assert_eq!(found("{{ end }}").as_deref(), Some("1:{{ end }}"));
    }

    #[test]
    fn other_braces_are_not_templates() {
        assert_eq!(found("value: '{{ request_header(\"x\") }}'"), None);
        assert_eq!(found("value: '{{ default(a, b) }}'"), None);
        assert_eq!(found("json: {\"a\": {\"b\": 1}}"), None);
        assert_eq!(found("x: {{a: 1}: 2}"), None);
        assert_eq!(found("msg: '{{ item.name }}'"), None);
    }
}
