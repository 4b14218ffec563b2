import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// A request the HTTP parser could not read, with what to tell its sender: the part of the request
/// at fault, what is wrong with it and how to send it instead.
struct MalformedRequest: Error {
    /// 400, or 431 for a header too large.
    let status: HTTPResponse.Status
    /// The error code of the JSON answer.
    let code: String
    /// What went wrong and what to do, for a person.
    let message: String

    /// The answer to `error` when it is a parse error of the request; `nil` for other errors (a
    /// connection reset, say), which no answer can reach.
    init?(_ error: any Error) {
        if let conversion = error as? HTTP1TypeConversionError {
            self.init(conversion: conversion)
        } else if let parser = error as? HTTPParserError {
            self.init(parser: parser)
        } else {
            return nil
        }
    }

    private init(status: HTTPResponse.Status = .badRequest, code: String = "malformed_request", _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    private init(conversion: HTTP1TypeConversionError) {
        self.init("the request line has no path or no known method; send `METHOD /path HTTP/1.1` with GET, HEAD or POST")
    }

    private init(parser: HTTPParserError) {
        switch parser {
        case .headerOverflow:
            self.init(
                status: .requestHeaderFieldsTooLarge, code: "header_too_large",
                "the request's header is larger than 80 KiB or has more than 1000 fields; send a shorter header")
        case .invalidChunkSize:
            self.init(
                "a chunk size of the chunked body is not a hexadecimal number followed by CRLF; send each chunk as `<size in hex>\\r\\n<bytes>\\r\\n`, or send the body with Content-Length"
            )
        case .invalidContentLength:
            self.init("Content-Length is not one whole number of bytes; send it once, as the body's length in decimal digits")
        case .unexpectedContentLength:
            self.init(
                "the request gives Content-Length twice or together with Transfer-Encoding; send one of them: Content-Length alone, or Transfer-Encoding: chunked alone"
            )
        case .invalidMethod:
            self.init("the request line does not start with an HTTP method; send `METHOD /path HTTP/1.1` with GET, HEAD or POST")
        case .invalidURL:
            self.init("the request line's target is not a valid path; percent-encode spaces and control characters in the path")
        case .invalidVersion:
            self.init("the request line's version is not HTTP/1.0 or HTTP/1.1; send `METHOD /path HTTP/1.1` (this server speaks HTTP/1.1)")
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected, .invalidConstant:
            self.init(
                "a header line is not `Name: value` ending in CRLF (a name holds letters, digits and !#$%&'*+-.^_`|~, a value no control characters); fix the header line"
            )
        case .closedConnection, .invalidEOFState:
            self.init("the connection ended in the middle of the request; send the whole request")
        default:
            self.init(
                "the request is not well-formed HTTP/1.1 (a Transfer-Encoding that does not end in chunked, or a line that does not end in CRLF, for example); send it as HTTP/1.1 defines"
            )
        }
    }
}
