#ifndef CAMERAROLL_CMICROHTTPDSHIMS_H
#define CAMERAROLL_CMICROHTTPDSHIMS_H

// Fixed-arity wrappers around the variadic libmicrohttpd calls HTTPServer uses.
// Swift cannot call C variadic functions, and option items that carry a
// function pointer need a cast to intptr_t that is clearer written in C.

#include <stddef.h>
#include <stdint.h>
#include <microhttpd.h>

/// The signature MHD_OPTION_URI_LOG_CALLBACK expects (microhttpd.h names no type for it).
typedef void *(*cr_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon with every option in `options` (terminated by MHD_OPTION_END),
/// passed through MHD_OPTION_ARRAY. The port comes from an MHD_OPTION_SOCK_ADDR item.
/// `policy` decides, by the client's address, whether a connection just accepted is served.
struct MHD_Daemon *cr_mhd_start_daemon(
    unsigned int flags, const struct MHD_OptionItem *options, MHD_AcceptPolicyCallback policy, void *policy_cls,
    MHD_AccessHandlerCallback handler, void *handler_cls);

/// Option items for the options that take two pointers: the function goes in `value`.
struct MHD_OptionItem cr_mhd_option_notify_completed(MHD_RequestCompletedCallback callback, void *cls);
struct MHD_OptionItem cr_mhd_option_uri_log(cr_mhd_uri_log_callback callback, void *cls);
struct MHD_OptionItem cr_mhd_option_notify_connection(MHD_NotifyConnectionCallback callback, void *cls);

/// The port the daemon's listen socket is bound to, 0 if unknown.
uint16_t cr_mhd_daemon_bind_port(struct MHD_Daemon *daemon);

/// The client's IP address as text into `buffer`; 0 on success, -1 if unknown.
int cr_mhd_connection_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

/// The client's socket address, NULL if unknown.
const struct sockaddr *cr_mhd_connection_sockaddr(struct MHD_Connection *connection);

/// The connection's idle timeout in seconds (0: none), and setting it, which only MHD's thread
/// serving the connection may do, and not while it is suspended.
unsigned int cr_mhd_connection_timeout(struct MHD_Connection *connection);
void cr_mhd_connection_set_timeout(struct MHD_Connection *connection, unsigned int seconds);

/// Writes `size` bytes to the client outside libmicrohttpd's own sending, through the
/// connection's TLS session when it has one, else straight to its socket.
void cr_mhd_connection_send_early(struct MHD_Connection *connection, const void *data, size_t size);

/// 1 when the client has closed its side (or the socket failed) and nothing it sent is left
/// unread below libmicrohttpd: 0.9.75 (seen with its epoll loop) takes a short read for "drained", never
/// sees an end that arrived together with the last bytes, until the connection times out.
int cr_mhd_connection_peer_closed(struct MHD_Connection *connection);

/// The status of the response queued on the connection, 0 if none is.
unsigned int cr_mhd_connection_http_status(struct MHD_Connection *connection);

#endif
