#include "CCurlShims.h"

CURLcode cameraroll_curl_set_long(CURL *handle, CURLoption option, long value) { return curl_easy_setopt(handle, option, value); }

CURLcode cameraroll_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cameraroll_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cameraroll_curl_set_pointer(CURL *handle, CURLoption option, void *value) { return curl_easy_setopt(handle, option, value); }

CURLcode cameraroll_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cameraroll_curl_set_data_callback(CURL *handle, CURLoption option, size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, option, callback);
}

long cameraroll_curl_response_code(CURL *handle) {
    long code = 0;
    if (curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
    return code;
}
