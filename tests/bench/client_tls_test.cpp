// https: the certificate is verified. A loopback TLS server with a self-signed certificate made
// in the test: without --ca-file the request is a connect error naming the verification
// failure; with the certificate as --ca-file it succeeds; an unreadable --ca-file is an error.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <unistd.h>

#include <asio.hpp>
#include <asio/ssl.hpp>

#include <filesystem>
#include <fstream>
#include <thread>

#include "bench/http_client.h"
#include "bench/load_runner.h"
#include "bench/openai_protocol.h"

namespace gpuport {
namespace {

struct Credentials {
  std::string certificate_pem;
  std::string key_pem;
};

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(size));
}

// A self-signed P-256 certificate for IP 127.0.0.1, valid for an hour.
Credentials make_credentials() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("gpuport test"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* san =
      X509V3_EXT_conf_nid(nullptr, &context, NID_subject_alt_name, "IP:127.0.0.1");
  X509_add_ext(cert, san, -1);
  X509_EXTENSION_free(san);
  X509_sign(cert, key, EVP_sha256());
  BIO* cert_bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(cert_bio, cert);
  BIO* key_bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(key_bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  Credentials credentials{bio_text(cert_bio), bio_text(key_bio)};
  BIO_free(cert_bio);
  BIO_free(key_bio);
  X509_free(cert);
  EVP_PKEY_free(key);
  return credentials;
}

// Answers every TLS connection with one streamed token and closes it.
class TlsServer {
 public:
  explicit TlsServer(const Credentials& credentials)
      : m_context(asio::ssl::context::tls_server),
        m_acceptor(m_io, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    m_context.use_certificate_chain(asio::buffer(credentials.certificate_pem));
    m_context.use_private_key(asio::buffer(credentials.key_pem), asio::ssl::context::pem);
    accept();
    m_thread = std::thread([this] { m_io.run_for(std::chrono::seconds(8)); });
  }
  ~TlsServer() {
    m_io.stop();
    m_thread.join();
  }
  std::uint16_t port() const { return m_acceptor.local_endpoint().port(); }

 private:
  void accept() {
    m_acceptor.async_accept([this](asio::error_code ec, asio::ip::tcp::socket socket) {
      if (ec) {
        return;
      }
      asio::ssl::stream<asio::ip::tcp::socket> stream(std::move(socket), m_context);
      stream.handshake(asio::ssl::stream_base::server, ec);
      if (!ec) {
        std::string request;
        asio::read_until(stream, asio::dynamic_buffer(request), "\r\n\r\n", ec);
        const std::string event = "data: {\"choices\":[{\"index\":0,\"text\":\"hi\"}]}\n\n";
        const std::string response =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
            "Content-Length: " +
            std::to_string(event.size()) + "\r\n\r\n" + event;
        asio::write(stream, asio::buffer(response), ec);
        stream.shutdown(ec);
      }
      accept();
    });
  }

  asio::io_context m_io;
  asio::ssl::context m_context;
  asio::ip::tcp::acceptor m_acceptor;
  std::thread m_thread;
};

class ClientTls : public ::testing::Test {
 protected:
  void SetUp() override {
    m_credentials = make_credentials();
    std::string pattern = (std::filesystem::temp_directory_path() / "gpuport-tls-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    ASSERT_GE(fd, 0);
    ::close(fd);
    m_ca_file = pattern;
    std::ofstream(m_ca_file) << m_credentials.certificate_pem;
  }
  void TearDown() override { std::filesystem::remove(m_ca_file); }

  BenchMeasurement one_request(std::uint16_t port, const std::string& ca_file,
                               std::string* detail) {
    HttpClientOptions options;
    options.url = *parse_url("https://127.0.0.1:" + std::to_string(port) + "/v1/completions");
    options.ca_file = ca_file;
    auto client = HttpClient::create(options);
    EXPECT_TRUE(client) << (client ? "" : client.error());
    LoadOptions load;
    load.requests = 1;
    load.timeout_ns = 5'000'000'000;
    LoadCallbacks callbacks;
    callbacks.prepare = [](std::uint64_t) {
      return PreparedRequest{build_request_body(GenerationRequest{}), 1};
    };
    callbacks.on_record = [detail](const RequestRecord& r) { *detail = r.error_detail; };
    return run_load(**client, load, Slo{}, callbacks).measurement;
  }

  Credentials m_credentials;
  std::string m_ca_file;
};

TEST_F(ClientTls, AnUntrustedCertificateIsAConnectError) {
  TlsServer server(m_credentials);
  std::string detail;
  const BenchMeasurement m = one_request(server.port(), "", &detail);
  EXPECT_EQ(m.completed, 0u);
  EXPECT_EQ(m.errors.at("connect"), 1u);
  EXPECT_NE(detail.find("TLS handshake with 127.0.0.1:" + std::to_string(server.port()) + ": "),
            std::string::npos)
      << detail;
  EXPECT_NE(detail.find("certificate verify failed"), std::string::npos) << detail;
}

TEST_F(ClientTls, TheCertificateGivenAsCaFileIsTrusted) {
  TlsServer server(m_credentials);
  std::string detail;
  const BenchMeasurement m = one_request(server.port(), m_ca_file, &detail);
  EXPECT_EQ(m.completed, 1u) << detail;
  EXPECT_EQ(m.failed, 0u);
}

TEST_F(ClientTls, AnUnreadableCaFileIsAnError) {
  HttpClientOptions options;
  options.url = *parse_url("https://127.0.0.1:1/");
  options.ca_file = "/nonexistent/ca.pem";
  auto client = HttpClient::create(options);
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().rfind("cannot read --ca-file '/nonexistent/ca.pem': ", 0), 0u)
      << client.error();
}

}  // namespace
}  // namespace gpuport
