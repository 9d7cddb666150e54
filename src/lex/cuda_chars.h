// Byte classes of C/C++/CUDA source for the lexer.
#pragma once

#include <array>
#include <cstdint>

namespace gpuport::cuda_chars {

// ---- character classes ---------------------------------------------------------------------

constexpr std::uint8_t k_space = 1;        // ' ' \t \v \f \r (a lone \r is not a line break)
constexpr std::uint8_t k_ident_start = 2;  // [A-Za-z_$] and bytes >= 0x80
constexpr std::uint8_t k_ident = 4;        // k_ident_start and digits
constexpr std::uint8_t k_digit = 8;        // [0-9]
constexpr std::uint8_t k_pp_number = 16;   // [0-9A-Za-z_.]: continues a pp-number
constexpr std::uint8_t k_alnum = 32;       // [0-9A-Za-z]: may follow a digit separator

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    std::uint8_t bits = 0;
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    if (c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r') {
      bits |= k_space;
    }
    if (letter || c == '_' || c == '$' || c >= 0x80) {
      bits |= k_ident_start | k_ident;
    }
    if (digit) {
      bits |= k_digit | k_ident;
    }
    if (letter || digit || c == '_' || c == '.') {
      bits |= k_pp_number;
    }
    if (letter || digit) {
      bits |= k_alnum;
    }
    table[static_cast<std::size_t>(c)] = bits;
  }
  return table;
}

constexpr std::array<std::uint8_t, 256> k_classes = make_classes();

inline std::uint8_t class_of(char c) {
  return k_classes[static_cast<unsigned char>(c)];
}

}  // namespace gpuport::cuda_chars
