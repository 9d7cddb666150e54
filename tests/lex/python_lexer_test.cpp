// Tests for the Python lexer: token kinds, texts, lines, columns, logical lines and bad input.
#include "lex/python_lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuport {
namespace {

struct Tok {
  TokenKind kind;
  std::string text;
  std::uint32_t line;
  std::uint32_t column;
  bool operator==(const Tok&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Tok& t) {
  return os << "{" << static_cast<int>(t.kind) << ", \"" << t.text << "\", " << t.line << ", "
            << t.column << "}";
}

std::vector<Tok> lex(std::string_view source, TokenStream& stream) {
  lex_python(source, stream);
  std::vector<Tok> out;
  for (const Token& token : stream.tokens) {
    out.push_back({token.kind, std::string(stream.text(token)), token.line, stream.column(token)});
  }
  return out;
}

std::vector<Tok> lex(std::string_view source) {
  TokenStream stream;
  return lex(source, stream);
}

// Kinds and texts only, for long sequences.
std::vector<std::string> texts(std::string_view source) {
  std::vector<std::string> out;
  for (const Tok& t : lex(source)) {
    out.push_back(t.kind == TokenKind::Newline ? std::string("NL") : t.text);
  }
  return out;
}

using K = TokenKind;

TEST(PythonLexer, SimpleStatementWithPositions) {
  EXPECT_EQ(lex("import torch\nx = torch.cuda  # gpu\n"),
            (std::vector<Tok>{{K::Identifier, "import", 1, 1},
                              {K::Identifier, "torch", 1, 8},
                              {K::Newline, "\n", 1, 13},
                              {K::Identifier, "x", 2, 1},
                              {K::Punct, "=", 2, 3},
                              {K::Identifier, "torch", 2, 5},
                              {K::Punct, ".", 2, 10},
                              {K::Identifier, "cuda", 2, 11},
                              {K::Comment, "# gpu", 2, 17},
                              {K::Newline, "\n", 2, 22}}));
}

TEST(PythonLexer, LineStartsAndCrLf) {
  TokenStream stream;
  auto toks = lex("a\r\nb\n\nc", stream);
  EXPECT_EQ(stream.line_starts, (std::vector<std::uint32_t>{0, 3, 5, 6}));
  ASSERT_EQ(toks.size(), 6u);
  EXPECT_EQ(toks[0], (Tok{K::Identifier, "a", 1, 1}));
  EXPECT_EQ(toks[1], (Tok{K::Newline, "\n", 1, 3}));
  EXPECT_EQ(toks[2], (Tok{K::Identifier, "b", 2, 1}));
  EXPECT_EQ(toks[4], (Tok{K::Identifier, "c", 4, 1}));
  // The last logical line ends with a zero-length Newline at the end of the file.
  EXPECT_EQ(toks[5], (Tok{K::Newline, "", 4, 2}));
  EXPECT_EQ(stream.line_text(1), "a");
}

TEST(PythonLexer, NoNewlineInsideBracketsOrAfterContinuation) {
  EXPECT_EQ(texts("f(a,\n  b)\nx = 1 + \\\n    2\n"),
            (std::vector<std::string>{"f", "(", "a", ",", "b", ")", "NL", "x", "=", "1", "+", "2",
                                      "NL"}));
  auto toks = lex("x = [\n  1,\n]\n");
  EXPECT_EQ(toks.back(), (Tok{K::Newline, "\n", 3, 2}));
}

TEST(PythonLexer, NoNewlineForBlankAndCommentLines) {
  EXPECT_EQ(texts("\n\n# only a comment\n   \nx\n"),
            (std::vector<std::string>{"# only a comment", "x", "NL"}));
}

TEST(PythonLexer, UnbalancedClosersDoNotGoNegative) {
  // A stray ')' must not make the next '(' look closed: Newline after each line.
  EXPECT_EQ(texts(")\n(\n)\ny\n"),
            (std::vector<std::string>{")", "NL", "(", ")", "NL", "y", "NL"}));
}

TEST(PythonLexer, StringPrefixesAndQuotes) {
  auto toks = lex(R"(a = r'\d' + b"x" + Rb'y' + bR"z" + f"{v!r}" + u'w' + Fr"q" + rf'p')");
  std::vector<std::string> strings;
  for (const Tok& t : toks) {
    if (t.kind == K::String) {
      strings.push_back(t.text);
    }
  }
  EXPECT_EQ(strings, (std::vector<std::string>{R"(r'\d')", R"(b"x")", "Rb'y'", R"(bR"z")",
                                               R"(f"{v!r}")", "u'w'", R"(Fr"q")", "rf'p'"}));
  // Not a prefix: an identifier followed by a string.
  EXPECT_EQ(texts("xr'a'"), (std::vector<std::string>{"xr", "'a'", "NL"}));
  EXPECT_EQ(texts("ub'a'"), (std::vector<std::string>{"ub", "'a'", "NL"}));
}

TEST(PythonLexer, EscapesAndRawStringQuote) {
  EXPECT_EQ(
      texts(R"(s = "a\"b" + r"c\"d" + 'e\\')"),
      (std::vector<std::string>{"s", "=", R"("a\"b")", "+", R"(r"c\"d")", "+", R"('e\\')", "NL"}));
}

TEST(PythonLexer, TripleQuotedStringSpansLines) {
  auto toks = lex("x = \"\"\"one\n\"two\"\nthree\"\"\" + y\nz\n");
  ASSERT_EQ(toks.size(), 8u);
  EXPECT_EQ(toks[2], (Tok{K::String, "\"\"\"one\n\"two\"\nthree\"\"\"", 1, 5}));
  EXPECT_EQ(toks[3], (Tok{K::Punct, "+", 3, 10}));
  EXPECT_EQ(toks[5], (Tok{K::Newline, "\n", 3, 13}));
  EXPECT_EQ(toks[6], (Tok{K::Identifier, "z", 4, 1}));
}

TEST(PythonLexer, BackslashNewlineInsideSingleQuotedString) {
  auto toks = lex("s = 'ab\\\ncd'\nt\n");
  ASSERT_EQ(toks.size(), 6u);
  EXPECT_EQ(toks[2], (Tok{K::String, "'ab\\\ncd'", 1, 5}));
  EXPECT_EQ(toks[4], (Tok{K::Identifier, "t", 3, 1}));
}

TEST(PythonLexer, UnterminatedSingleQuotedStringEndsAtNewline) {
  TokenStream stream;
  auto toks = lex("x = 'abc\r\ny = 2\n", stream);
  ASSERT_GE(toks.size(), 4u);
  EXPECT_EQ(toks[2], (Tok{K::String, "'abc", 1, 5}));
  EXPECT_EQ(stream.tokens[2].flags & k_token_unterminated, k_token_unterminated);
  EXPECT_EQ(toks[3].kind, K::Newline);
  EXPECT_EQ(toks[4], (Tok{K::Identifier, "y", 2, 1}));
  ASSERT_EQ(stream.diagnostics.size(), 1u);
  EXPECT_EQ(stream.diagnostics[0].line, 1u);
  EXPECT_EQ(stream.diagnostics[0].column, 5u);
  EXPECT_EQ(stream.diagnostics[0].message, "unterminated string literal");
}

TEST(PythonLexer, UnterminatedTripleQuotedStringRunsToEnd) {
  TokenStream stream;
  auto toks = lex("a\ndoc = '''never\nclosed\n", stream);
  ASSERT_EQ(toks.size(), 6u);
  EXPECT_EQ(toks[4], (Tok{K::String, "'''never\nclosed\n", 2, 7}));
  EXPECT_EQ(stream.tokens[4].flags, k_token_unterminated);
  EXPECT_EQ(toks[5], (Tok{K::Newline, "", 4, 1}));
  ASSERT_EQ(stream.diagnostics.size(), 1u);
  EXPECT_EQ(stream.diagnostics[0].line, 2u);
  EXPECT_EQ(stream.diagnostics[0].column, 7u);
  EXPECT_EQ(stream.diagnostics[0].message, "unterminated triple-quoted string");
}

// Strings longer than the 16-byte blocks the lexer skips through: a quote, backslash or line
// break on either side of a block boundary still ends, escapes or counts as it would alone.
TEST(PythonLexer, LongStringsAcrossBlockBoundaries) {
  for (std::size_t pad : {0u, 13u, 14u, 15u, 16u, 17u, 31u, 32u, 33u}) {
    const std::string filler(pad, 'a');
    const std::string single = "'" + filler + "\\'" + filler + "\\\\'";
    const std::string triple =
        "\"\"\"" + filler + "\n" + filler + "\"\"\\\"\"\"\n" + filler + "\"\"\"";
    auto toks = lex("x = " + single + "\ny = " + triple + " + z\nw\n");
    ASSERT_EQ(toks.size(), 12u) << pad;
    EXPECT_EQ(toks[2], (Tok{K::String, single, 1, 5})) << pad;
    EXPECT_EQ(toks[6], (Tok{K::String, triple, 2, 5})) << pad;
    EXPECT_EQ(toks[7], (Tok{K::Punct, "+", 4, static_cast<std::uint32_t>(pad + 5)})) << pad;
    EXPECT_EQ(toks[10], (Tok{K::Identifier, "w", 5, 1})) << pad;
  }
}

TEST(PythonLexer, LongUnterminatedStringStopsAtTheLineBreak) {
  TokenStream stream;
  const std::string body(40, 'q');
  auto toks = lex("s = '" + body + "\nt = 1\n", stream);
  ASSERT_GE(toks.size(), 5u);
  EXPECT_EQ(toks[2], (Tok{K::String, "'" + body, 1, 5}));
  EXPECT_EQ(stream.tokens[2].flags, k_token_unterminated);
  EXPECT_EQ(toks[4], (Tok{K::Identifier, "t", 2, 1}));
  EXPECT_EQ(stream.diagnostics.size(), 1u);
}

TEST(PythonLexer, BracketsAndSeparatorsTrackDepthAndBlanks) {
  // Newline tokens only outside brackets; one blank or a run of them between tokens.
  EXPECT_EQ(texts("f(a,\n  [b;c],\t{d: ~e})\ng  =\t\t1\n"),
            (std::vector<std::string>{"f", "(", "a", ",", "[", "b", ";",  "c", "]", ",", "{",
                                      "d", ":", "~", "e", "}", ")", "NL", "g", "=", "1", "NL"}));
  auto toks = lex("a ( b )  c\n");
  ASSERT_EQ(toks.size(), 6u);
  EXPECT_EQ(toks[1], (Tok{K::Punct, "(", 1, 3}));
  EXPECT_EQ(toks[3], (Tok{K::Punct, ")", 1, 7}));
  EXPECT_EQ(toks[4], (Tok{K::Identifier, "c", 1, 10}));
}

TEST(PythonLexer, UnterminatedAtEndOfFileAfterBackslash) {
  TokenStream stream;
  auto toks = lex("'ab\\", stream);
  ASSERT_EQ(toks.size(), 2u);
  EXPECT_EQ(toks[0], (Tok{K::String, "'ab\\", 1, 1}));
  EXPECT_EQ(stream.diagnostics.size(), 1u);
}

TEST(PythonLexer, Numbers) {
  EXPECT_EQ(texts("1_000 0x_ff 0o17 0b1010 1e-3 1.5E+10 .5 3. 1j 2.5J 10_0.0_1"),
            (std::vector<std::string>{"1_000", "0x_ff", "0o17", "0b1010", "1e-3", "1.5E+10", ".5",
                                      "3.", "1j", "2.5J", "10_0.0_1", "NL"}));
  for (const Tok& t : lex("1_000 0x_ff 1e-3 1j")) {
    if (t.kind != K::Newline) {
      EXPECT_EQ(t.kind, K::Number) << t.text;
    }
  }
  // 'e' without digits is not an exponent.
  EXPECT_EQ(texts("1else"), (std::vector<std::string>{"1", "else", "NL"}));
}

TEST(PythonLexer, OperatorsLongestMatch) {
  EXPECT_EQ(texts("a **= b //= c >>= d -> e := f @ g @= h != i ... j"),
            (std::vector<std::string>{"a", "**=", "b", "//=", "c", ">>=", "d", "->",  "e", ":=",
                                      "f", "@",   "g", "@=",  "h", "!=",  "i", "...", "j", "NL"}));
  auto toks = lex("@triton.jit");
  EXPECT_EQ(toks[0], (Tok{K::Punct, "@", 1, 1}));
}

TEST(PythonLexer, IdentifiersIncludeNonAscii) {
  auto toks = lex("n\xC3\xA4me = 1");
  EXPECT_EQ(toks[0], (Tok{K::Identifier, "n\xC3\xA4me", 1, 1}));
}

TEST(PythonLexer, StrayBytesAreOther) {
  auto toks = lex("a $? b\\ c");
  EXPECT_EQ(toks[1], (Tok{K::Other, "$?", 1, 3}));
  EXPECT_EQ(toks[3], (Tok{K::Other, "\\", 1, 7}));
  EXPECT_EQ(toks[4], (Tok{K::Identifier, "c", 1, 9}));
}

TEST(PythonLexer, ByteOrderMarkIsSkipped) {
  auto toks = lex("\xEF\xBB\xBFimport os\n");
  ASSERT_EQ(toks.size(), 3u);
  EXPECT_EQ(toks[0], (Tok{K::Identifier, "import", 1, 4}));
}

TEST(PythonLexer, CommentExcludesCarriageReturn) {
  auto toks = lex("# note\r\nx\r\n");
  EXPECT_EQ(toks[0], (Tok{K::Comment, "# note", 1, 1}));
  EXPECT_EQ(toks[1], (Tok{K::Identifier, "x", 2, 1}));
}

TEST(PythonLexer, NulBytesAndEmptyInputDoNotCrash) {
  EXPECT_TRUE(lex("").empty());
  const std::string nul("a\0b", 3);
  auto toks = lex(nul);
  ASSERT_EQ(toks.size(), 4u);
  EXPECT_EQ(toks[1].kind, K::Other);
}

TEST(PythonLexer, AnchorsAreIdentifiersStringsAndDecoratorAts) {
  TokenStream stream;
  lex("@triton.jit  # c\ndef f(a, b='x'):\n    return a @ b @= 1.5\n", stream);
  std::vector<std::string> anchored;
  for (const std::uint32_t anchor : stream.anchors) {
    anchored.emplace_back(stream.text(stream.tokens[anchor]));
  }
  // `@=` is another operator, and numbers, comments and other punctuation are no anchors.
  const std::vector<std::string> expected = {"@", "triton", "jit",    "def", "f", "a",
                                             "b", "'x'",    "return", "a",   "@", "b"};
  EXPECT_EQ(anchored, expected);
  for (std::size_t i = 1; i < stream.anchors.size(); ++i) {
    EXPECT_LT(stream.anchors[i - 1], stream.anchors[i]);
  }
}

TEST(PythonLexer, StreamIsClearedBetweenFiles) {
  TokenStream stream;
  lex("'unterminated\n", stream);
  lex("x\n", stream);
  EXPECT_EQ(stream.tokens.size(), 2u);
  EXPECT_EQ(stream.anchors.size(), 1u);
  EXPECT_TRUE(stream.diagnostics.empty());
  EXPECT_EQ(stream.line_starts.size(), 2u);
}

}  // namespace
}  // namespace gpuport
