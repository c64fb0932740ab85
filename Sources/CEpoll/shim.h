// epoll, eventfd and timerfd are glibc's (libc6-dev, always present), but Swift's Glibc module does not
// import their headers. No library to link.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
