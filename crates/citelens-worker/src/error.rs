//! Every error the worker answers with: a status and a typed JSON body `{"error": {"kind", "message"}}`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("missing or unknown bearer token")]
    Unauthorized,
    #[error("{0}")]
    BadRequest(String),
    #[error("the request body is over the limit of {0} bytes")]
    TooLarge(usize),
    /// The queue is full: come back after `retry_after_s`.
    #[error("the worker is busy: {queued} pairs queued (limit {capacity}); retry after {retry_after_s} s")]
    Busy { queued: usize, capacity: usize, retry_after_s: u64 },
    #[error("the request did not finish within its deadline of {0} ms")]
    Deadline(u64),
    #[error("the worker is shutting down or not ready")]
    NotReady,
    #[error("{0}")]
    Internal(String),
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    /// `unauthorized`, `bad_request`, `too_large`, `busy`, `deadline`, `not_ready` or `internal`.
    pub kind: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Busy { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Deadline(_) | ApiError::NotReady => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::Unauthorized => "unauthorized",
            ApiError::BadRequest(_) => "bad_request",
            ApiError::TooLarge(_) => "too_large",
            ApiError::Busy { .. } => "busy",
            ApiError::Deadline(_) => "deadline",
            ApiError::NotReady => "not_ready",
            ApiError::Internal(_) => "internal",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody { error: ErrorDetail { kind: self.kind(), message: self.to_string() } };
        let mut res = (self.status(), axum::Json(body)).into_response();
        match &self {
            ApiError::Busy { retry_after_s, .. } => {
                res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_s));
            }
            ApiError::Unauthorized => {
                res.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            _ => {}
        }
        res
    }
}
