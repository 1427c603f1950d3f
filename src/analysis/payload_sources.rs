//! What a request's payload is, by syntax alone: the methods that read a
//! body, the extractor types that hold one, the attributes that make a
//! function an entry point whose parameters are deserialised from the
//! request, the functions that deserialise, and input records by their
//! names. Sources of IDEM003; split from `hashing`, which says what
//! digests them.

use super::vocab::{contains_ci, words};

/// Whether a method reads the request's body by its API's own words
/// (`body()`, `into_body()`, trillium's `request_body()`, tide's
/// `body_string()`, `read_body()`, `take_body()`, `body_json()`, hyper's
/// and astra's `body_mut()`, salvo's and zino's `parse_body()`): `body`
/// and only words of reading, taking, parsing or a format beside it. A
/// response's body is the caller's to exclude.
pub fn reads_body_method(method: &str) -> bool {
    // Asked of every method call: most names have no `body` at all.
    if !contains_ci(method, "body") {
        return false;
    }
    let w = words(method);
    w.iter().any(|x| x == "body")
        && w.iter().all(|x| {
            matches!(
                x.as_str(),
                "body"
                    | "request"
                    | "req"
                    | "read"
                    | "take"
                    | "into"
                    | "raw"
                    | "as"
                    | "full"
                    | "bytes"
                    | "string"
                    | "str"
                    | "json"
                    | "text"
                    | "form"
                    | "to"
                    | "mut"
                    | "parse"
                    | "get"
                    | "stream"
            )
        })
}

/// Extractor types that hold the request body (`Json<T>`, `Form<T>`,
/// `Bytes`): a parameter or pattern of one is the payload, whatever it is
/// called (`Json(input): Json<CreateOrder>`, `raw: Bytes`).
const BODY_EXTRACTORS: &[&str] = &[
    "Json",
    "Form",
    "Bytes",
    "BytesMut",
    "RawBody",
    "RawForm",
    "Body",
    "BodyStream",
    "Payload",
    "Multipart",
    "MultipartForm",
    "TypedMultipart",
    "Cbor",
    "MsgPack",
    "Protobuf",
    "Xml",
];

/// The last path segments of attributes that make a function a request's
/// entry point whose parameters the framework deserialises from the
/// request (`#[server]` of Leptos and Dioxus, `#[tauri::command]`, a
/// Substrate `#[pallet::call_index(..)]`, `#[handler]` of Poem and Salvo,
/// Dropshot's `#[endpoint]`, route attributes, jsonrpsee's `#[method]`).
const ENTRY_POINT_ATTRIBUTES: &[&str] = &[
    "method",
    "server",
    "command",
    "call_index",
    "handler",
    "endpoint",
    "post",
    "put",
    "patch",
];

/// Whether a function's attributes make it a request's entry point.
pub fn is_entry_point(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        (attr.path().segments.last())
            .is_some_and(|s| ENTRY_POINT_ATTRIBUTES.contains(&s.ident.to_string().as_str()))
    })
}

/// Whether a type or tuple-struct pattern name is a body extractor: one of
/// the frameworks' own, or a type named for a body's format.
pub fn is_body_extractor(ident: &str) -> bool {
    BODY_EXTRACTORS.contains(&ident) || names_body_extractor(ident)
}

/// A type whose name is made of a body's format and words that only
/// qualify it (`JsonBody`, `FormBody`, `Raw`, `ValidatedJson`,
/// `BodyBytes`): an in-house framework's extractor of the request body, as
/// the frameworks' own are. A word naming another part of the request or
/// of the exchange (`RawQuery`, `JsonResponse`, `BodyLimit`, `FormConfig`)
/// makes it something else.
fn names_body_extractor(ident: &str) -> bool {
    const FORMATS: &[&str] = &[
        "json",
        "form",
        "body",
        "raw",
        "payload",
        "bytes",
        "cbor",
        "msgpack",
        "protobuf",
        "xml",
        "multipart",
    ];
    // What the extractor does with the body (`JsonIn`, `FormExtract`,
    // `ReqJson`, `ParsedCbor`) qualifies it as much as how it checks it.
    const QUALIFIERS: &[&str] = &[
        "valid",
        "validated",
        "typed",
        "strict",
        "checked",
        "full",
        "in",
        "inbound",
        "extract",
        "extracted",
        "extractor",
        "req",
        "parsed",
        "decoded",
        // A multipart request's part (`RawPart`, `FormPart`) is body too.
        "part",
    ];
    if !ident.starts_with(|c: char| c.is_ascii_uppercase()) {
        return false;
    }
    let words = words(ident);
    words.iter().any(|w| FORMATS.contains(&w.as_str()))
        && (words.iter()).all(|w| FORMATS.contains(&w.as_str()) || QUALIFIERS.contains(&w.as_str()))
}

/// Whether a function of a data format deserialises its one argument
/// (`serde_json::from_slice(&body)`); `from_str` too, which is also
/// `FromStr`'s, so the evaluator asks for a format's path or a bare import.
pub fn is_deserialise_fn(ident: &str) -> bool {
    matches!(
        ident,
        "from_slice"
            | "from_reader"
            | "from_bytes"
            | "deserialize"
            | "decode_from_slice"
            | "from_str"
    )
}

/// Whether a parameter's type is a body extractor, behind references and
/// an optional body (`Json<T>`, `web::Json<T>`, `&Bytes`, `Option<Bytes>`).
pub fn type_is_body_extractor(ty: &syn::Type) -> bool {
    crate::analysis::syntax::type_name_within(ty, &["Option"])
        .is_some_and(|name| is_body_extractor(&name))
}

/// Whether a parameter's type is a request's input record by its name
/// (`CreateOrderRequest`, `AdjustmentInput`, `TransferPayload`, a CQRS
/// `AccountCommand`): a
/// deserialised request body, also wrapped in a gRPC `Request<..>`. The
/// framework's own request types (`Request<Body>`, `HttpRequest`) are the
/// whole request, not its input.
pub fn type_is_input_record(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => type_is_input_record(&r.elem),
        syn::Type::Paren(p) => type_is_input_record(&p.elem),
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| {
            let name = s.ident.to_string();
            // A gRPC request wrapping its message (`tonic::Request<CreateOrderRequest>`):
            // `into_inner()` is the deserialised input.
            if name == "Request" {
                if let syn::PathArguments::AngleBracketed(args) = &s.arguments {
                    if let (1, Some(syn::GenericArgument::Type(inner))) =
                        (args.args.len(), args.args.first())
                    {
                        return type_is_input_record(inner);
                    }
                }
            }
            let w = words(&name);
            w.len() >= 2
                && matches!(s.arguments, syn::PathArguments::None)
                && matches!(
                    w.last().map(String::as_str),
                    Some("request" | "input" | "payload" | "body" | "form" | "command")
                )
                && !w.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "http" | "service" | "grpc" | "tonic" | "raw" | "incoming" | "login"
                    )
                })
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_extractors_by_the_format_their_names_say() {
        let body = [
            "Json",
            "JsonBody",
            "FormBody",
            "Raw",
            "ValidatedJson",
            "BodyBytes",
            "JsonIn",
            "FormExtract",
            "ReqJson",
            "RawPart",
        ];
        let other = [
            "RawQuery",
            "JsonResponse",
            "BodyLimit",
            "FormConfig",
            "JsonOut",
            "JsonReply",
            "raw",
            "Query",
        ];
        assert!(body.iter().all(|n| is_body_extractor(n)));
        assert!(!other.iter().any(|n| is_body_extractor(n)));
    }
}
