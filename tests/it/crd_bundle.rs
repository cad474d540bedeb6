//! The compact bundle compiled into dopol (`crds/bundle/`) is exactly dopol's reading of the
//! vendored CRDs (`crds/`), and every bundled kind compiles. `DOPOL_BLESS_CRDS=1` rewrites the
//! bundle (scripts/refresh-crds.sh does).

use dopol::crd::bundle::{BUNDLED, compact};
use dopol::crd::catalog::crds_in;
use dopol::crd::{Catalog, Channel};
use dopol::source::SourceId;
use std::path::Path;

#[test]
fn bundle_matches_the_vendored_crds() {
    let bless = std::env::var_os("DOPOL_BLESS_CRDS").is_some();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crds");
    let mut stale = Vec::new();
    for bundled in BUNDLED {
        let text = std::fs::read_to_string(root.join(bundled.file)).unwrap();
        let mut diagnostics = Vec::new();
        let crds = crds_in(SourceId(0), &text, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{}: {diagnostics:?}", bundled.file);
        assert_eq!(crds.len(), 1, "{}", bundled.file);
        let expected = serde_json::to_string(&compact(&crds[0].0).unwrap()).unwrap();
        let path = root
            .join("bundle")
            .join(bundled.file.replace(".yaml", ".json"));
        if bless {
            std::fs::write(&path, &expected).unwrap();
        } else if expected != bundled.compact {
            stale.push(bundled.file);
        }
    }
    assert!(
        stale.is_empty(),
        "crds/bundle is out of date for {stale:?}: run scripts/refresh-crds.sh (or DOPOL_BLESS_CRDS=1 cargo test --test it crd_bundle::)"
    );
}

#[test]
fn every_bundled_kind_and_version_compiles() {
    for channel in [Channel::Standard, Channel::Experimental] {
        let catalog = Catalog::bundled(channel);
        let kinds: Vec<(String, String)> = catalog
            .kinds()
            .map(|(g, k)| (g.to_string(), k.to_string()))
            .collect();
        assert_eq!(kinds.len(), 39, "{kinds:?}");
        for (group, kind) in kinds {
            let crd = catalog.get(&group, &kind).unwrap();
            assert!(!crd.served().is_empty(), "{kind}");
            for version in &crd.versions {
                assert!(
                    version.schema().is_ok(),
                    "{kind} {}: {:?}",
                    version.name,
                    version.schema().as_ref().err()
                );
            }
        }
    }
}
