// POLLRDHUP
#define _GNU_SOURCE
#include "CMicroHTTPDShims.h"

#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

struct MHD_Daemon *cr_mhd_start_daemon(
    unsigned int flags, const struct MHD_OptionItem *options, MHD_AcceptPolicyCallback policy, void *policy_cls,
    MHD_AccessHandlerCallback handler, void *handler_cls) {
    // MHD_OPTION_ARRAY takes a non-const pointer but never writes through it.
    return MHD_start_daemon(
        flags, 0, policy, policy_cls, handler, handler_cls, MHD_OPTION_ARRAY, (struct MHD_OptionItem *)options, MHD_OPTION_END);
}

struct MHD_OptionItem cr_mhd_option_notify_completed(MHD_RequestCompletedCallback callback, void *cls) {
    struct MHD_OptionItem item = {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)callback, cls};
    return item;
}

struct MHD_OptionItem cr_mhd_option_uri_log(cr_mhd_uri_log_callback callback, void *cls) {
    struct MHD_OptionItem item = {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)callback, cls};
    return item;
}

struct MHD_OptionItem cr_mhd_option_notify_connection(MHD_NotifyConnectionCallback callback, void *cls) {
    struct MHD_OptionItem item = {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)callback, cls};
    return item;
}

uint16_t cr_mhd_daemon_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

const struct sockaddr *cr_mhd_connection_sockaddr(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

unsigned int cr_mhd_connection_timeout(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_TIMEOUT);
    return info == NULL ? 0 : info->connection_timeout;
}

void cr_mhd_connection_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    (void)MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

int cr_mhd_connection_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const struct sockaddr *address = cr_mhd_connection_sockaddr(connection);
    if (address == NULL) return -1;
    switch (address->sa_family) {
    case AF_INET: {
        // Every request asks, and inet_ntop goes through printf-style formatting: four numbers
        // are quicker written by hand.
        if (size < INET_ADDRSTRLEN) return -1;
        const unsigned char *octets = (const unsigned char *)&((const struct sockaddr_in *)address)->sin_addr;
        char *end = buffer;
        for (int i = 0; i < 4; i++) {
            unsigned int octet = octets[i];
            if (octet >= 100) *end++ = (char)('0' + octet / 100);
            if (octet >= 10) *end++ = (char)('0' + octet / 10 % 10);
            *end++ = (char)('0' + octet % 10);
            *end++ = i < 3 ? '.' : '\0';
        }
        return 0;
    }
    case AF_INET6:
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size) == NULL ? -1 : 0;
    default:
        return -1;
    }
}

void cr_mhd_connection_send_early(struct MHD_Connection *connection, const void *data, size_t size) {
    // Plain bytes on a TLS connection would break its record stream, and only the session knows
    // the keys. MHD answers NULL for this on a daemon without TLS.
    const union MHD_ConnectionInfo *tls = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (tls != NULL && tls->tls_session != NULL) {
        (void)gnutls_record_send((gnutls_session_t)tls->tls_session, data, size);
        return;
    }
    const union MHD_ConnectionInfo *socket = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (socket != NULL) (void)send(socket->connect_fd, data, size, MSG_NOSIGNAL);
}

int cr_mhd_connection_peer_closed(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *tls = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (tls != NULL && tls->tls_session != NULL && gnutls_record_check_pending((gnutls_session_t)tls->tls_session) > 0) return 0;
    const union MHD_ConnectionInfo *socket = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (socket == NULL) return 0;
    struct pollfd watched = {.fd = socket->connect_fd, .events = POLLIN | POLLRDHUP};
    if (poll(&watched, 1, 0) != 1) return 0;
    if (watched.revents & (POLLHUP | POLLERR)) return 1;
    // RDHUP with bytes still queued: they are read first, and their short read hides no end.
    char byte;
    return (watched.revents & POLLRDHUP) && recv(socket->connect_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

unsigned int cr_mhd_connection_http_status(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info == NULL ? 0 : info->http_status;
}
