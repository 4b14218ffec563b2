import Foundation
import Testing
import WhereaboutsServer

/// Requests the HTTP parser cannot read get the JSON error body every other error has, naming what
/// is wrong, with `Connection: close`, and the connection is closed.
@Suite("Malformed requests on a live server")
struct MalformedRequestTests {
    /// A request the parser refuses, the status of its answer and a phrase the answer's message must
    /// hold; the error code is `header_too_large` with 431, else `malformed_request`.
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String { name }
        var code: String { status == 431 ? "header_too_large" : "malformed_request" }

        let name: String
        let bytes: String
        let status: Int
        let phrase: String
    }

    static let cases = [
        Case(
            name: "a header line without a colon", bytes: "GET /health HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n", status: 400,
            phrase: "a header line is not `Name: value`"),
        Case(
            name: "no method", bytes: "GARBAGE\r\n\r\n", status: 400,
            phrase: "does not start with an HTTP method"),
        Case(
            name: "a Content-Length that is not a number", bytes: "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n",
            status: 400, phrase: "Content-Length is not one whole number"),
        Case(
            name: "two different Content-Lengths",
            bytes: "POST /pub HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef", status: 400,
            phrase: "Content-Length twice"),
        Case(
            name: "HTTP/9.9", bytes: "GET /health HTTP/9.9\r\nHost: a\r\n\r\n", status: 400,
            phrase: "not HTTP/1.0 or HTTP/1.1"),
        Case(
            name: "Transfer-Encoding chunked twice",
            bytes: "POST /pub HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
            status: 400, phrase: "Transfer-Encoding that does not end in chunked"),
        Case(
            name: "a header of 100 KB",
            bytes: "GET /health HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n",
            status: 431, phrase: "larger than 80 KiB"),
    ]

    @Test("a request the parser refuses is answered with the JSON error body, then the connection closes", arguments: cases)
    func refused(_ request: Case) async throws {
        try await withLiveServer(.sqlite) { server in
            let (reply, closed) = try await RawConnection.with(port: server.port) { connection in
                let reply = await connection.sendAndRead(Array(request.bytes.utf8), timeout: 10)
                return (reply, await connection.readUntilClose(timeout: 10))
            }
            let answer = try #require(reply, "no answer")
            #expect(answer.status == request.status, "\(answer.text)")
            #expect(answer.headers["content-type"] == "application/json")
            #expect(answer.headers["connection"] == "close")
            #expect(answer.json["error"] as? String == request.code, "\(answer.text)")
            #expect((answer.json["message"] as? String)?.contains(request.phrase) == true, "\(answer.text)")
            #expect(closed)
        }
    }

    @Test("garbage after a good request on the same connection: the good one is answered, then the garbage with the JSON error")
    func afterAGoodRequest() async throws {
        try await withLiveServer(.sqlite) { server in
            let replies = try await RawConnection.with(port: server.port) { connection in
                await connection.send(rawRequest("GET", "/health", keepAlive: true) + Array("GARBAGE\r\n\r\n".utf8))
                return [await connection.readResponse(timeout: 10), await connection.readResponse(timeout: 10)]
            }
            #expect(replies.first??.status == 200)
            let second = try #require(replies.last ?? nil, "no second answer")
            #expect(second.status == 400 && second.json["error"] as? String == "malformed_request", "\(second.text)")
        }
    }

    @Test("a malformed chunk size while an upload is read is 400 unreadable_body naming the chunk size")
    func brokenChunk() async throws {
        try await withLiveServer(.sqlite) { server in
            let head = rawRequest(
                "POST", "/v1/devices/\(server.device)/locations",
                headers: [("Authorization", "Bearer \(server.token)"), ("Transfer-Encoding", "chunked")], keepAlive: true)
            let reply = try await RawConnection.with(port: server.port) {
                await $0.sendAndRead(head + Array("zz\r\n{}\r\n0\r\n\r\n".utf8), timeout: 10)
            }
            let answer = try #require(reply, "no answer")
            #expect(answer.status == 400 && answer.json["error"] as? String == "unreadable_body", "\(answer.text)")
            #expect((answer.json["message"] as? String)?.contains("not a hexadecimal number") == true, "\(answer.text)")
        }
    }
}
