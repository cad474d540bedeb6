//! Documentation of the findings about how an Envoy Gateway policy is written, reported while
//! decoding (see `families::envoy::decode`).
