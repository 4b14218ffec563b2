/// The login form of the HTML pages: a device id and its token, or the admin token alone.
enum LoginPage {
    /// The form, with `problem` (why the last try or the page asked failed) above it, and `device`
    /// filled in.
    static func html(problem: String?, device: String?) -> String {
        TrackPage.page(
            title: "Whereabouts: log in", loggedIn: false,
            body: """
                <h1>Log in</h1>
                \(problem.map { "<p class=\"problem\" id=\"problem\">\(TrackPage.escape($0))</p>" } ?? "")
                <form method="post" action="/login">
                <label for="device">Device id (leave empty with the admin token)</label>
                <input id="device" name="device" autocomplete="username" value="\(TrackPage.escape(device ?? ""))">
                <label for="token">Token</label>
                <input id="token" name="token" type="password" autocomplete="current-password" required>
                <p><button type="submit" id="login">Log in</button></p>
                </form>
                <p>A device's token was printed by <code>whereabouts-server device add</code> or <code>device rotate-token</code>.</p>
                """)
    }
}
