use std::sync::OnceLock;
use std::time::Duration;

use cryptoxide::hashing::sha256;
use jni::objects::{JByteArray, JClass, JString};
use jni::sys::jstring;
use jni::JNIEnv;
use multibase::Base;

/// Blocking HTTP client shared by every call from the Kotlin side of the SDK.
static HTTP: OnceLock<wreq::blocking::Client> = OnceLock::new();

fn http() -> &'static wreq::blocking::Client {
    HTTP.get_or_init(|| {
        wreq::blocking::Client::builder()
            .timeout(Duration::from_secs(20))
            .build()
            .expect("http client")
    })
}

fn post_payment(base_url: &str, api_key: &str, body: Vec<u8>) -> Result<String, String> {
    let attempt_key = uuid7::uuid7().to_string();
    let digest = multibase::encode(Base::Base64, sha256(&body));
    let request_id = uuid7::uuid7().to_string();
    let resp = http()
        .post(format!("{base_url}/v1/payments"))
        .bearer_auth(api_key)
        .header("Idempotency-Key", &attempt_key)
        .header("Content-Digest", format!("sha-256=:{digest}:"))
        .header("X-Request-Id", &request_id)
        .body(body)
        .send()
        .map_err(|e| e.to_string())?;
    let status = resp.status();
    let text = resp.text().map_err(|e| e.to_string())?;
    if status.is_success() {
        Ok(text)
    } else {
        Err(format!("HTTP {status}: {text}"))
    }
}

#[no_mangle]
pub extern "system" fn Java_com_example_pay_NativeBridge_postPayment<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    base_url: JString<'local>,
    api_key: JString<'local>,
    body: JByteArray<'local>,
) -> jstring {
    let base_url: String = env.get_string(&base_url).map(Into::into).unwrap_or_default();
    let api_key: String = env.get_string(&api_key).map(Into::into).unwrap_or_default();
    let body = env.convert_byte_array(&body).unwrap_or_default();
    let out = match post_payment(&base_url, &api_key, body) {
        Ok(json) => json,
        Err(e) => format!("{{\"error\":{:?}}}", e),
    };
    env.new_string(out).expect("new java string").into_raw()
}
