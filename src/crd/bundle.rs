//! The CRDs compiled into dopol, and the compact form they are stored in.
//!
//! `crds/` holds the upstream files unchanged (see `crds/PROVENANCE.md`). Compiling 3.4 MB of
//! YAML into the binary and parsing it on every run would cost both size and start-up time, so
//! the binary holds `crds/bundle/`, a compact JSON reading of each file made by [`compact`]:
//! only what validation uses (group, kind, scope, versions, served flags, the status
//! subresource, and each schema without `description`). `tests/it/crd_bundle.rs` recomputes the
//! bundle from the YAML files and fails when they differ (`DOPOL_BLESS_CRDS=1` rewrites it), so
//! the two cannot drift apart.

use serde_json::{Map, Value as Json};

/// Which Gateway API CRD channel to validate against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Channel {
    /// The standard channel: experimental fields are unknown fields.
    Standard,
    /// The experimental channel (a superset of standard).
    #[default]
    Experimental,
}

impl Channel {
    /// The channel's name, as `--gateway-api-channel` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Standard => "standard",
            Channel::Experimental => "experimental",
        }
    }
}

/// One bundled CRD.
#[derive(Debug)]
pub struct Bundled {
    /// The vendored file, relative to `crds/`.
    pub file: &'static str,
    /// The Gateway API channel it belongs to (`None`: every channel).
    pub channel: Option<Channel>,
    /// Its compact form.
    pub compact: &'static str,
}

macro_rules! bundled {
    ($( $channel:expr, $file:literal; )*) => {
        /// Every bundled CRD.
        pub const BUNDLED: &[Bundled] = &[ $( Bundled {
            file: concat!($file, ".yaml"),
            channel: $channel,
            compact: include_str!(concat!("../../crds/bundle/", $file, ".json")),
        }, )* ];
    };
}

bundled! {
    Some(Channel::Standard), "gateway-api/standard/gateway.networking.k8s.io_gatewayclasses";
    Some(Channel::Standard), "gateway-api/standard/gateway.networking.k8s.io_gateways";
    Some(Channel::Standard), "gateway-api/standard/gateway.networking.k8s.io_httproutes";
    Some(Channel::Standard), "gateway-api/standard/gateway.networking.k8s.io_grpcroutes";
    Some(Channel::Standard), "gateway-api/standard/gateway.networking.k8s.io_listenersets";
    Some(Channel::Experimental), "gateway-api/experimental/gateway.networking.k8s.io_gatewayclasses";
    Some(Channel::Experimental), "gateway-api/experimental/gateway.networking.k8s.io_gateways";
    Some(Channel::Experimental), "gateway-api/experimental/gateway.networking.k8s.io_httproutes";
    Some(Channel::Experimental), "gateway-api/experimental/gateway.networking.k8s.io_grpcroutes";
    Some(Channel::Experimental), "gateway-api/experimental/gateway.networking.k8s.io_listenersets";
    None, "kuadrant-operator/kuadrant.io_authpolicies";
    None, "kuadrant-operator/kuadrant.io_ratelimitpolicies";
    None, "kuadrant-operator/kuadrant.io_tokenratelimitpolicies";
    None, "kgateway/gateway.kgateway.dev_trafficpolicies";
    None, "kgateway/gateway.kgateway.dev_listenerpolicies";
    None, "kgateway/gateway.kgateway.dev_backendconfigpolicies";
    None, "envoy-gateway/gateway.envoyproxy.io_backendtrafficpolicies";
    None, "envoy-gateway/gateway.envoyproxy.io_clienttrafficpolicies";
    None, "envoy-gateway/gateway.envoyproxy.io_securitypolicies";
    None, "envoy-gateway/gateway.envoyproxy.io_envoyextensionpolicies";
    None, "kuma/kuma.io_meshes";
    None, "kuma/kuma.io_dataplanes";
    None, "kuma/kuma.io_meshservices";
    None, "kuma/kuma.io_meshexternalservices";
    None, "kuma/kuma.io_meshmultizoneservices";
    None, "kuma/kuma.io_meshgateways";
    None, "kuma/kuma.io_meshidentities";
    None, "kuma/kuma.io_meshhttproutes";
    None, "kuma/kuma.io_meshtcproutes";
    None, "kuma/kuma.io_meshaccesslogs";
    None, "kuma/kuma.io_meshcircuitbreakers";
    None, "kuma/kuma.io_meshfaultinjections";
    None, "kuma/kuma.io_meshhealthchecks";
    None, "kuma/kuma.io_meshloadbalancingstrategies";
    None, "kuma/kuma.io_meshmetrics";
    None, "kuma/kuma.io_meshpassthroughs";
    None, "kuma/kuma.io_meshproxypatches";
    None, "kuma/kuma.io_meshratelimits";
    None, "kuma/kuma.io_meshretries";
    None, "kuma/kuma.io_meshtimeouts";
    None, "kuma/kuma.io_meshtlses";
    None, "kuma/kuma.io_meshtraces";
    None, "kuma/kuma.io_meshtrafficpermissions";
    None, "agentgateway/agentgateway.dev_agentgatewaypolicies";
}

/// The compact form of a CustomResourceDefinition (as JSON): `group`, `kind`, `scope`, and per
/// version `name`, `served`, `storage`, `deprecated`, `deprecationWarning`, `status` (whether
/// the status subresource is on) and `schema` (the openAPIV3Schema without descriptions).
/// `None` when `crd` is not a CRD.
pub fn compact(crd: &Json) -> Option<Json> {
    let spec = crd.get("spec")?;
    let names = spec.get("names")?;
    let versions: Vec<Json> = spec
        .get("versions")?
        .as_array()?
        .iter()
        .map(|v| {
            let mut out = Map::new();
            for key in [
                "name",
                "served",
                "storage",
                "deprecated",
                "deprecationWarning",
            ] {
                if let Some(value) = v.get(key) {
                    out.insert(key.into(), value.clone());
                }
            }
            let status = v.pointer("/subresources/status").is_some()
                || spec.pointer("/subresources/status").is_some();
            out.insert("status".into(), Json::Bool(status));
            let schema = v
                .pointer("/schema/openAPIV3Schema")
                .or_else(|| spec.pointer("/validation/openAPIV3Schema"));
            if let Some(schema) = schema {
                out.insert("schema".into(), strip_schema(schema));
            }
            Json::Object(out)
        })
        .collect();
    let mut out = Map::new();
    out.insert("group".into(), spec.get("group")?.clone());
    out.insert("kind".into(), names.get("kind")?.clone());
    out.insert(
        "scope".into(),
        spec.get("scope").cloned().unwrap_or("Namespaced".into()),
    );
    out.insert("versions".into(), Json::Array(versions));
    Some(Json::Object(out))
}

/// A schema without its `description`s (property maps keep a property called `description`).
fn strip_schema(schema: &Json) -> Json {
    let Some(obj) = schema.as_object() else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in obj {
        let value = match key.as_str() {
            "description" | "example" | "externalDocs" => continue,
            "properties" | "patternProperties" | "definitions" => match value.as_object() {
                Some(props) => Json::Object(
                    props
                        .iter()
                        .map(|(k, v)| (k.clone(), strip_schema(v)))
                        .collect(),
                ),
                None => value.clone(),
            },
            "items" | "additionalProperties" | "not" => strip_schema(value),
            "allOf" | "anyOf" | "oneOf" => match value.as_array() {
                Some(list) => Json::Array(list.iter().map(strip_schema).collect()),
                None => value.clone(),
            },
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    Json::Object(out)
}
