# .tls_common: a common symbol of type TLS.
.tls_common t,4,4
.tls_common u,8
