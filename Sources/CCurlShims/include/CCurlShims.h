#ifndef CCURLSHIMS_H
#define CCURLSHIMS_H
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one fixed-arity
// wrapper per kind of argument.
CURLcode cameraroll_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode cameraroll_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode cameraroll_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode cameraroll_curl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode cameraroll_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode cameraroll_curl_set_data_callback(CURL *handle, CURLoption option, size_t (*callback)(char *, size_t, size_t, void *));
long cameraroll_curl_response_code(CURL *handle);
#endif
