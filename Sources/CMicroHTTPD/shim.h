// GNU libmicrohttpd (Debian's libmicrohttpd-dev) for diagd's OTLP/HTTP receiver.
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_start_daemon takes its options as C varargs, which Swift cannot call: this fixes the
// options diagd uses. One thread per connection (a request waits for the store's commit before
// its answer), poll() rather than select() (no FD_SETSIZE limit), on a socket diagd bound itself.
static inline struct MHD_Daemon *diag_mhd_start(int listen_fd, MHD_AccessHandlerCallback handler, void *context,
                                                MHD_RequestCompletedCallback completed, unsigned int connection_limit,
                                                unsigned int timeout_seconds, size_t stack_size) {
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL, 0,
                            NULL, NULL, handler, context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_THREAD_STACK_SIZE, stack_size,
                            MHD_OPTION_END);
}
