internal import CMicroHTTPD
internal import CMicroHTTPDShims

/// How a daemon is started: flags, limits from the configuration, and the callbacks that lead
/// into `ServerCore` through their `cls` pointer.
enum DaemonOptions {
    /// nil when libmicrohttpd could not start (the address is taken, most often, or the TLS
    /// identity is unusable).
    static func start(
        _ configuration: Configuration, address: SocketAddress, tls: TLSText?, core: UnsafeMutableRawPointer
    ) -> OpaquePointer? {
        // Internal polling threads, and suspend/resume so handlers never block them. poll(2), not
        // epoll: with a thread pool, libmicrohttpd 0.9.75's MHD_quiesce_daemon takes the listen
        // socket out of each worker's epoll set while the worker, seeing the flag it just set, may
        // do the same, and then aborts the process ("Failed to remove listen FD from epoll set";
        // seen in CI). With poll a quiesced worker just stops watching the socket; serving cached
        // thumbnails under wrk measured the same either way. No MHD_USE_ERROR_LOG: what matters is
        // logged by us, through `configuration.log`.
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.isIPv6 { flags |= (address.isIPv6Any ? MHD_USE_DUAL_STACK : MHD_USE_IPv6).rawValue }
        if tls != nil { flags |= MHD_USE_TLS.rawValue }

        return address.withSockaddr { sockaddr in
            var items = [
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: sockaddr),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: Int(wholeSeconds(configuration.connectionTimeout)), ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
                // Behind proxies every client's connection comes from one of their few addresses.
                MHD_OptionItem(
                    option: .PER_IP_CONNECTION_LIMIT,
                    value: configuration.forwardedFor.proxies.isEmpty ? configuration.perIPConnectionLimit : configuration.connectionLimit,
                    ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
                // Strict: HTTP/1.1 needs Host, and a space inside the URI is refused.
                MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: 1, ptr_value: nil),
                cr_mhd_option_uri_log(
                    { cls, uri, _ in
                        Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue().begin(rawURI: uri)
                    }, core),
                cr_mhd_option_notify_connection(
                    { cls, connection, _, event in
                        guard let connection else { return }
                        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
                        switch event {
                        case .CONNECTION_NOTIFY_STARTED: core.opened(Connection(handle: connection))
                        case .CONNECTION_NOTIFY_CLOSED: core.closed(Connection(handle: connection))
                        default: break
                        }
                    }, core),
                cr_mhd_option_notify_completed(
                    { cls, connection, requestContext, _ in
                        guard let connection, let requestContext, let pointer = requestContext.pointee else { return }
                        requestContext.pointee = nil
                        Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue().complete(Connection(handle: connection), pointer)
                    }, core),
            ]
            if let tls {
                items.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: tls.certificateChain.pointer))
                items.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: tls.privateKey.pointer))
                // MHD compiles the string into GnuTLS's priority cache while starting, and keeps no pointer to it.
                let priorities = UnsafeMutableRawPointer(mutating: tlsPriorities.utf8Start)
                items.append(MHD_OptionItem(option: .HTTPS_PRIORITIES, value: 0, ptr_value: priorities))
            }
            if configuration.threads > 1 {
                items.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
            }
            items.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

            return cr_mhd_start_daemon(
                flags, items,
                { cls, address, _ in
                    guard let cls, let address else { return .YES }
                    return Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().admits(address) ? .YES : .NO
                }, core,
                { cls, connection, url, method, version, uploadData, uploadSize, requestContext in
                    guard let cls, let connection, let uploadSize, let pointer = requestContext?.pointee else { return .NO }
                    // Body data comes with a pointer; the calls without one are the others.
                    let upload = uploadData.map { UnsafeRawBufferPointer(start: $0, count: uploadSize.pointee) }
                    // Every piece of body is consumed: written to disk, or the request is ended.
                    uploadSize.pointee = 0
                    return Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().access(
                        Connection(handle: connection), Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue(), url: url,
                        method: method, version: version, upload: upload)
                }, core)
        }
    }

    /// What GnuTLS offers: TLS 1.2 and 1.3 only, AEAD ciphers only (AES-GCM, ChaCha20-Poly1305),
    /// ECDHE key exchange (TLS 1.2) over elliptic-curve groups, the server's order first. GnuTLS'
    /// NORMAL, libmicrohttpd's default, also takes TLS 1.0 and 1.1, CBC with SHA-1, CCM, plain
    /// RSA and finite-field DHE key exchange. Every browser of the last several years speaks TLS 1.2 with
    /// ECDHE and AES-GCM.
    static let tlsPriorities: StaticString = """
        NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:-MAC-ALL:+AEAD\
        :-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1:+GROUP-SECP384R1:+GROUP-SECP521R1\
        :%SERVER_PRECEDENCE
        """

    /// libmicrohttpd counts timeouts in whole seconds; round up so a short timeout never becomes none.
    static func wholeSeconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        return UInt32(clamping: max(1, seconds + (attoseconds > 0 ? 1 : 0)))
    }
}
