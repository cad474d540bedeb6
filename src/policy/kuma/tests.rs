//! Kuma's rules (contract `kuma.md`), one test per rule, on small Kubernetes inputs.
