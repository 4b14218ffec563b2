import CSodium
import Foundation

/// OwnTracks payload encryption: libsodium's `crypto_secretbox` (XSalsa20-Poly1305) under the key the
/// apps make of their passphrase (its UTF-8 bytes cut or zero-padded to 32, as the Android app and the
/// Recorder do). On the wire a sealed message is base64 of the 24-byte nonce followed by the ciphertext.
struct OwnTracksSecretBox: Sendable {
    /// Why a payload could not be opened.
    enum Failure: Error, Equatable {
        /// `data` is not base64.
        case notBase64
        /// Fewer bytes than a nonce and an authenticator: the count.
        case tooShort(Int)
        /// The authenticator does not match: another key, or the payload was changed.
        case wrongKey
    }

    private let key: [UInt8]

    /// The box for an app's passphrase.
    init(passphrase: String) {
        let size = crypto_secretbox_keybytes()
        let bytes = Array(passphrase.utf8.prefix(size))
        key = bytes + Array(repeating: 0, count: size - bytes.count)
    }

    /// The plaintext of a sealed payload (base64; line breaks and spaces are ignored).
    func open(_ base64: String) throws(Failure) -> Data {
        let compact = base64.filter { !$0.isWhitespace }
        guard let sealed = Data(base64Encoded: compact) else { throw .notBase64 }
        let nonceSize = crypto_secretbox_noncebytes()
        let macSize = crypto_secretbox_macbytes()
        guard sealed.count >= nonceSize + macSize else { throw .tooShort(sealed.count) }
        let bytes = Array(sealed)
        var plaintext = [UInt8](repeating: 0, count: bytes.count - nonceSize - macSize)
        let status = bytes.withUnsafeBufferPointer { buffer in
            crypto_secretbox_open_easy(
                &plaintext, buffer.baseAddress! + nonceSize, UInt64(bytes.count - nonceSize), buffer.baseAddress!, key)
        }
        guard status == 0 else { throw .wrongKey }
        return Data(plaintext)
    }

    /// `plaintext` sealed under a fresh random nonce, as base64.
    func seal(_ plaintext: Data) -> String {
        precondition(Self.initialised, "libsodium cannot initialise, so no random nonce can be drawn")
        var nonce = [UInt8](repeating: 0, count: crypto_secretbox_noncebytes())
        randombytes_buf(&nonce, nonce.count)
        let message = Array(plaintext)
        var sealed = [UInt8](repeating: 0, count: message.count + crypto_secretbox_macbytes())
        _ = crypto_secretbox_easy(&sealed, message, UInt64(message.count), nonce, key)
        return Data(nonce + sealed).base64EncodedString()
    }

    /// libsodium initialised once per process, before the first random nonce.
    private static let initialised = sodium_init() >= 0
}
