// Tests for the C/C++/CUDA lexer: token kinds, positions, directives, #if contexts, bad input.
#include "lex/cuda_lexer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "token_invariants.h"

namespace gpuport {
namespace {

using K = TokenKind;
using C = BranchContext;

struct Tok {
  TokenKind kind;
  std::string text;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  bool operator==(const Tok& other) const {
    return kind == other.kind && text == other.text && line == other.line && column == other.column;
  }
};

const char* kind_name(TokenKind kind) {
  static const char* const k_names[] = {
      "Identifier", "Number",     "String",     "Char",        "Comment", "Punct", "DirStart",
      "DirEnd",     "HeaderName", "LaunchOpen", "LaunchClose", "Newline", "Other"};
  return k_names[static_cast<int>(kind)];
}

void PrintTo(const Tok& tok, std::ostream* os) {
  *os << kind_name(tok.kind) << " '" << tok.text << "' " << tok.line << ":" << tok.column;
}

struct Lexed {
  std::string source;
  TokenStream out;
};

// Lexes and checks the structural invariants.
void lex(Lexed& lexed, std::string source) {
  lexed.source = std::move(source);
  lex_cuda(lexed.source, lexed.out);
  EXPECT_EQ(check_token_invariants(lexed.out), "");
}

std::vector<Tok> toks(const TokenStream& out) {
  std::vector<Tok> result;
  for (const Token& token : out.tokens) {
    result.push_back({token.kind, std::string(out.text(token)), token.line, out.column(token)});
  }
  return result;
}

// Kind and text only.
std::vector<std::pair<TokenKind, std::string>> kinds(const TokenStream& out) {
  std::vector<std::pair<TokenKind, std::string>> result;
  for (const Token& token : out.tokens) {
    result.emplace_back(token.kind, std::string(out.text(token)));
  }
  return result;
}

std::vector<std::string> texts_of(const TokenStream& out, TokenKind kind) {
  std::vector<std::string> result;
  for (const Token& token : out.tokens) {
    if (token.kind == kind) {
      result.emplace_back(out.text(token));
    }
  }
  return result;
}

// The context of the first identifier spelled `name`.
BranchContext context_of(const TokenStream& out, std::string_view name) {
  for (const Token& token : out.tokens) {
    if (token.kind == K::Identifier && out.text(token) == name) {
      return token.context;
    }
  }
  ADD_FAILURE() << "no identifier " << name;
  return C::Neutral;
}

TEST(CudaLexer, EmptyInputHasOneLineAndNoTokens) {
  Lexed l;
  lex(l, "");
  EXPECT_TRUE(l.out.tokens.empty());
  EXPECT_EQ(l.out.line_starts, std::vector<std::uint32_t>{0});
}

TEST(CudaLexer, IdentifiersAndPunctuationWithLinesAndColumns) {
  Lexed l;
  lex(l, "int x = y;\n  foo_$bar9 _a");
  EXPECT_EQ(toks(l.out), (std::vector<Tok>{{K::Identifier, "int", 1, 1},
                                           {K::Identifier, "x", 1, 5},
                                           {K::Punct, "=", 1, 7},
                                           {K::Identifier, "y", 1, 9},
                                           {K::Punct, ";", 1, 10},
                                           {K::Identifier, "foo_$bar9", 2, 3},
                                           {K::Identifier, "_a", 2, 13}}));
  EXPECT_EQ(l.out.line_starts, (std::vector<std::uint32_t>{0, 11}));
  EXPECT_TRUE(l.out.diagnostics.empty());
}

TEST(TokenStream, ColumnComesFromTheTokensLineAndFallsBackToASearch) {
  TokenStream out;
  lex_cuda("int a;\n  float bc;\n", out);
  ASSERT_EQ(out.tokens.size(), 6u);
  EXPECT_EQ(out.column(out.tokens[4]), 9u);  // `bc` on line 2
  Token wrong_line = out.tokens[4];
  wrong_line.line = 1;  // not a line that holds the offset: the search finds line 2
  EXPECT_EQ(out.column(wrong_line), 9u);
  wrong_line.line = 7;  // past the last line
  EXPECT_EQ(out.column(wrong_line), 9u);
  wrong_line.line = 0;
  EXPECT_EQ(out.column(wrong_line), 9u);
}

TEST(CudaLexer, Utf8BytesAreIdentifierCharacters) {
  Lexed l;
  lex(l, "float caf\xC3\xA9 = \xCE\xB1;");
  EXPECT_EQ(texts_of(l.out, K::Identifier),
            (std::vector<std::string>{"float", "caf\xC3\xA9", "\xCE\xB1"}));
}

TEST(CudaLexer, NumbersFollowThePpNumberRule) {
  Lexed l;
  lex(l, "0x1f 32u 1.0e-3f 1'000'000 .5 0x1p+3 1E+10 0b1010 42.f 0xABCDull 1.");
  EXPECT_EQ(texts_of(l.out, K::Number),
            (std::vector<std::string>{"0x1f", "32u", "1.0e-3f", "1'000'000", ".5", "0x1p+3",
                                      "1E+10", "0b1010", "42.f", "0xABCDull", "1."}));
  EXPECT_EQ(l.out.tokens.size(), 11u);
}

TEST(CudaLexer, DigitSeparatorIsNotACharLiteral) {
  Lexed l;
  lex(l, "int n = 1'000; char c = 'a'; int m = 0x0'ff;");
  EXPECT_EQ(texts_of(l.out, K::Number), (std::vector<std::string>{"1'000", "0x0'ff"}));
  EXPECT_EQ(texts_of(l.out, K::Char), (std::vector<std::string>{"'a'"}));
  EXPECT_TRUE(l.out.diagnostics.empty());
}

TEST(CudaLexer, NumberFollowedByPlusIsNotAnExponent) {
  Lexed l;
  lex(l, "a=1+2; b=x1e+2;");
  EXPECT_EQ(kinds(l.out), (std::vector<std::pair<K, std::string>>{{K::Identifier, "a"},
                                                                  {K::Punct, "="},
                                                                  {K::Number, "1"},
                                                                  {K::Punct, "+"},
                                                                  {K::Number, "2"},
                                                                  {K::Punct, ";"},
                                                                  {K::Identifier, "b"},
                                                                  {K::Punct, "="},
                                                                  {K::Identifier, "x1e"},
                                                                  {K::Punct, "+"},
                                                                  {K::Number, "2"},
                                                                  {K::Punct, ";"}}));
}

TEST(CudaLexer, StringsWithPrefixesAndEscapes) {
  Lexed l;
  lex(l, R"(s = "a" L"b" u8"c" u"d" U"e" "q\"q" "bs\\" "";)");
  EXPECT_EQ(texts_of(l.out, K::String),
            (std::vector<std::string>{R"("a")", R"(L"b")", R"(u8"c")", R"(u"d")", R"(U"e")",
                                      R"("q\"q")", R"("bs\\")", R"("")"}));
  EXPECT_EQ(l.out.tokens.back().kind, K::Punct);
  EXPECT_TRUE(l.out.diagnostics.empty());
}

TEST(CudaLexer, CharLiteralsWithPrefixesAndEscapes) {
  Lexed l;
  lex(l, R"(c = 'x' '\n' u8'y' L'z' u'w' U'v' '\'' '\\';)");
  EXPECT_EQ(texts_of(l.out, K::Char),
            (std::vector<std::string>{"'x'", R"('\n')", "u8'y'", "L'z'", "u'w'", "U'v'", R"('\'')",
                                      R"('\\')"}));
  EXPECT_TRUE(l.out.diagnostics.empty());
}

TEST(CudaLexer, RawStringsWithDelimitersAndPrefixes) {
  Lexed l;
  lex(l, "a = R\"(x)\"; c = LR\"(1)\" u8R\"(2)\" uR\"(3)\" UR\"(4)\";");
  EXPECT_EQ(
      texts_of(l.out, K::String),
      (std::vector<std::string>{"R\"(x)\"", "LR\"(1)\"", "u8R\"(2)\"", "uR\"(3)\"", "UR\"(4)\""}));
  Lexed m;
  std::string source = "b = R\"xy(p )\" q)x\" )xy\"; z";
  lex(m, source);
  ASSERT_EQ(m.out.tokens.size(), 5u);
  EXPECT_EQ(toks(m.out)[2], (Tok{K::String, "R\"xy(p )\" q)x\" )xy\"", 1, 5}));
  EXPECT_EQ(toks(m.out)[4],
            (Tok{K::Identifier, "z", 1, static_cast<std::uint32_t>(source.find('z') + 1)}));
}

TEST(CudaLexer, RawStringSpanningLinesKeepsLineCount) {
  Lexed l;
  lex(l, "auto s = R\"__(\nline \"two\"\n)__\";\nint after;");
  EXPECT_EQ(toks(l.out)[3], (Tok{K::String, "R\"__(\nline \"two\"\n)__\"", 1, 10}));
  EXPECT_EQ(context_of(l.out, "after"), C::Neutral);
  EXPECT_EQ(l.out.tokens.back().line, 4u);
  EXPECT_EQ(l.out.line_starts.size(), 4u);
}

TEST(CudaLexer, RawStringWithInvalidDelimiterIsAnIdentifierAndString) {
  Lexed l;
  lex(l, "R\"abcdefghijklmnopq(x)abcdefghijklmnopq\"");  // 17-char delimiter
  EXPECT_EQ(l.out.tokens[0].kind, K::Identifier);
  EXPECT_EQ(l.out.text(l.out.tokens[0]), "R");
  EXPECT_EQ(l.out.tokens[1].kind, K::String);
}

// Regression: `R"""(` was read as the identifier R and an empty string, and the rest of the file
// as a run of unterminated strings (hundreds of warnings in generated code that embeds Python).
TEST(CudaLexer, RawStringWhoseDelimiterIsTwoQuotes) {
  Lexed l;
  lex(l, "auto py = R\"\"\"(\nprint(\"a\")\n)\"\"\";\nint after;\n");
  EXPECT_EQ(texts_of(l.out, K::String),
            (std::vector<std::string>{"R\"\"\"(\nprint(\"a\")\n)\"\"\""}));
  EXPECT_TRUE(l.out.diagnostics.empty());
  EXPECT_EQ(texts_of(l.out, K::Identifier),
            (std::vector<std::string>{"auto", "py", "int", "after"}));
  EXPECT_EQ(l.out.tokens.back().line, 4u);
}

TEST(CudaLexer, RawStringDelimiterMayHoldAnyPunctuation) {
  Lexed l;
  lex(l, "s = R\"-*#(a)\" )-*#\"; t");
  EXPECT_EQ(texts_of(l.out, K::String), (std::vector<std::string>{"R\"-*#(a)\" )-*#\""}));
  EXPECT_EQ(texts_of(l.out, K::Identifier), (std::vector<std::string>{"s", "t"}));
}

TEST(CudaLexer, CommentsLineAndBlock) {
  Lexed l;
  lex(l, "a // one\nb /* two\nthree */ c //x\\\ncontinued\nd");
  EXPECT_EQ(toks(l.out), (std::vector<Tok>{{K::Identifier, "a", 1, 1},
                                           {K::Comment, "// one", 1, 3},
                                           {K::Identifier, "b", 2, 1},
                                           {K::Comment, "/* two\nthree */", 2, 3},
                                           {K::Identifier, "c", 3, 10},
                                           {K::Comment, "//x\\\ncontinued", 3, 12},
                                           {K::Identifier, "d", 5, 1}}));
}

TEST(CudaLexer, GlobalInsideCommentOrStringIsNotAnIdentifier) {
  Lexed l;
  lex(l,
      "// __global__ void k();\n/* __global__ */ const char* s = \"__global__\";\n"
      "auto r = R\"(__global__)\";");
  EXPECT_THAT(texts_of(l.out, K::Identifier), ::testing::Not(::testing::Contains("__global__")));
  EXPECT_EQ(texts_of(l.out, K::Comment).size(), 2u);
  EXPECT_EQ(texts_of(l.out, K::String),
            (std::vector<std::string>{"\"__global__\"", "R\"(__global__)\""}));
}

TEST(CudaLexer, PunctuatorsUseLongestMatch) {
  Lexed l;
  lex(l,
      "... <<= >>= <=> ->* -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= :: ## .* "
      "( ) [ ] { } ; , ? ~ ! = < > + - * / % & | ^ : . #");
  std::vector<std::string> expected = {
      "...", "<<=", ">>=", "<=>", "->*", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
      "!=",  "&&",  "||",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "::", "##",
      ".*",  "(",   ")",   "[",   "]",   "{",  "}",  ";",  ",",  "?",  "~",  "!",  "=",
      "<",   ">",   "+",   "-",   "*",   "/",  "%",  "&",  "|",  "^",  ":",  ".",  "#"};
  EXPECT_EQ(texts_of(l.out, K::Punct), expected);
  EXPECT_EQ(l.out.tokens.size(), expected.size());
}

// The punctuators that never start a longer one, next to each other, after one blank or a run of
// blanks, and inside a directive (where they carry its flag).
TEST(CudaLexer, SingleBytePunctuatorsAndBlankRuns) {
  Lexed l;
  lex(l, "f(a)[b]{c};d,e?g:~h \t  (\n#define M(x) {x;}\nz");
  EXPECT_EQ(toks(l.out), (std::vector<Tok>{{K::Identifier, "f", 1, 1},
                                           {K::Punct, "(", 1, 2},
                                           {K::Identifier, "a", 1, 3},
                                           {K::Punct, ")", 1, 4},
                                           {K::Punct, "[", 1, 5},
                                           {K::Identifier, "b", 1, 6},
                                           {K::Punct, "]", 1, 7},
                                           {K::Punct, "{", 1, 8},
                                           {K::Identifier, "c", 1, 9},
                                           {K::Punct, "}", 1, 10},
                                           {K::Punct, ";", 1, 11},
                                           {K::Identifier, "d", 1, 12},
                                           {K::Punct, ",", 1, 13},
                                           {K::Identifier, "e", 1, 14},
                                           {K::Punct, "?", 1, 15},
                                           {K::Identifier, "g", 1, 16},
                                           {K::Punct, ":", 1, 17},
                                           {K::Punct, "~", 1, 18},
                                           {K::Identifier, "h", 1, 19},
                                           {K::Punct, "(", 1, 24},
                                           {K::DirectiveStart, "#define", 2, 1},
                                           {K::Identifier, "M", 2, 9},
                                           {K::Punct, "(", 2, 10},
                                           {K::Identifier, "x", 2, 11},
                                           {K::Punct, ")", 2, 12},
                                           {K::Punct, "{", 2, 14},
                                           {K::Identifier, "x", 2, 15},
                                           {K::Punct, ";", 2, 16},
                                           {K::Punct, "}", 2, 17},
                                           {K::DirectiveEnd, "", 2, 18},
                                           {K::Identifier, "z", 3, 1}}));
  for (const Token& token : l.out.tokens) {
    EXPECT_EQ(token.in_directive(), token.line == 2) << l.out.text(token);
  }
}

TEST(CudaLexer, StrayBytesAreOther) {
  Lexed l;
  lex(l, "a @ ` \\ b");
  EXPECT_EQ(texts_of(l.out, K::Other), (std::vector<std::string>{"@", "`", "\\"}));
}

TEST(CudaLexer, LaunchChevronsAroundAKernelLaunch) {
  Lexed l;
  lex(l, "kernel<<<grid, block, 0, stream>>>(x, n >> 2);");
  auto tokens = toks(l.out);
  EXPECT_EQ(tokens[1], (Tok{K::LaunchOpen, "<<<", 1, 7}));
  EXPECT_EQ(tokens[9], (Tok{K::LaunchClose, ">>>", 1, 32}));
  EXPECT_EQ(texts_of(l.out, K::Punct),
            (std::vector<std::string>{",", ",", ",", "(", ",", ">>", ")", ";"}));
}

TEST(CudaLexer, TripleGreaterWithoutLaunchIsTemplateClosers) {
  Lexed l;
  lex(l, "std::vector<std::vector<std::vector<int>>> v;");
  EXPECT_TRUE(texts_of(l.out, K::LaunchClose).empty());
  EXPECT_THAT(texts_of(l.out, K::Punct),
              ::testing::ElementsAre("::", "<", "::", "<", "::", "<", ">>", ">", ";"));
}

TEST(CudaLexer, LaunchCloseOnlyWhileALaunchIsOpen) {
  Lexed l;
  lex(l,
      "k<<<dim3(n >> 1), 256>>>(a);\nstd::vector<std::vector<std::vector<int>>> v;\n"
      "k2<<<1, 1>>>();");
  EXPECT_EQ(texts_of(l.out, K::LaunchOpen).size(), 2u);
  EXPECT_EQ(texts_of(l.out, K::LaunchClose).size(), 2u);
  std::vector<std::string> line2;
  for (const Token& token : l.out.tokens) {
    if (token.line == 2 && token.kind == K::Punct) {
      line2.emplace_back(l.out.text(token));
    }
  }
  EXPECT_THAT(line2, ::testing::ElementsAre("::", "<", "::", "<", "::", "<", ">>", ">", ";"));
}

TEST(CudaLexer, OperatorShiftFollowedByTemplateArgumentsIsNotALaunch) {
  Lexed l;
  lex(l, "friend std::ostream& operator<<<>(std::ostream&, const A<B<C<int>>>&);");
  EXPECT_TRUE(texts_of(l.out, K::LaunchOpen).empty());
  EXPECT_TRUE(texts_of(l.out, K::LaunchClose).empty());
  EXPECT_THAT(texts_of(l.out, K::Punct),
              ::testing::IsSupersetOf({std::string("<<"), std::string(">>"), std::string(">")}));
}

TEST(CudaLexer, IncludeDirectivesProduceHeaderNames) {
  Lexed l;
  lex(l,
      "#include <cuda_runtime.h>\n#  include \"my/x.h\" // c\n#include_next <a.h>\n"
      "#import <b>\n#include MACRO\nint a < b;");
  EXPECT_EQ(toks(l.out)[0], (Tok{K::DirectiveStart, "#include", 1, 1}));
  EXPECT_EQ(toks(l.out)[1], (Tok{K::HeaderName, "<cuda_runtime.h>", 1, 10}));
  EXPECT_EQ(toks(l.out)[2], (Tok{K::DirectiveEnd, "", 1, 26}));
  EXPECT_EQ(toks(l.out)[3], (Tok{K::DirectiveStart, "#  include", 2, 1}));
  EXPECT_EQ(texts_of(l.out, K::HeaderName),
            (std::vector<std::string>{"<cuda_runtime.h>", "\"my/x.h\"", "<a.h>", "<b>"}));
  EXPECT_EQ(texts_of(l.out, K::Comment), (std::vector<std::string>{"// c"}));
  EXPECT_EQ(texts_of(l.out, K::Punct), (std::vector<std::string>{"<", ";"}));
  EXPECT_TRUE(l.out.tokens[4].in_directive());
}

TEST(CudaLexer, DirectiveWithContinuationsEndsOnItsLastLine) {
  Lexed l;
  std::string source = "#  define ADD(a, b) \\\n  ((a) + \\\r\n (b))\nint after;";
  lex(l, source);
  auto tokens = toks(l.out);
  EXPECT_EQ(tokens[0], (Tok{K::DirectiveStart, "#  define", 1, 1}));
  EXPECT_EQ(tokens[1], (Tok{K::Identifier, "ADD", 1, 11}));
  EXPECT_EQ(tokens[7], (Tok{K::Punct, "(", 2, 3}));
  EXPECT_EQ(tokens[12], (Tok{K::Punct, "(", 3, 2}));
  const Token& end = l.out.tokens[16];
  EXPECT_EQ(end.kind, K::DirectiveEnd);
  EXPECT_EQ(end.offset, source.find("\nint"));
  EXPECT_EQ(end.length, 0u);
  EXPECT_EQ(end.line, 3u);
  for (std::size_t i = 0; i <= 16; ++i) {
    EXPECT_TRUE(l.out.tokens[i].in_directive()) << i;
  }
  EXPECT_EQ(tokens[17], (Tok{K::Identifier, "int", 4, 1}));
  EXPECT_FALSE(l.out.tokens[17].in_directive());
}

TEST(CudaLexer, DirectiveAtEndOfFileEndsAtEof) {
  Lexed l;
  lex(l, "#define X 1");
  EXPECT_EQ(l.out.tokens.back().kind, K::DirectiveEnd);
  EXPECT_EQ(l.out.tokens.back().offset, 11u);
  EXPECT_EQ(l.out.tokens.back().line, 1u);
}

TEST(CudaLexer, NullDirectiveLineMarkerAndStringizing) {
  Lexed l;
  lex(l, "#\n# 12 \"f.cu\"\n#define S(x) #x a##b\n  /* c */ #pragma once\nx # y");
  EXPECT_EQ(texts_of(l.out, K::DirectiveStart),
            (std::vector<std::string>{"#", "#", "#define", "#pragma"}));
  EXPECT_EQ(texts_of(l.out, K::DirectiveEnd).size(), 4u);
  EXPECT_EQ(texts_of(l.out, K::Punct), (std::vector<std::string>{"(", ")", "#", "##", "#"}));
  EXPECT_FALSE(l.out.tokens.back().in_directive());
}

TEST(CudaLexer, CrLfIsOneLineBreakAndLoneCrIsNot) {
  Lexed l;
  lex(l, "int a; // c\r\nint b;\r\n\"s\r\nx\ry");
  EXPECT_EQ(l.out.line_starts, (std::vector<std::uint32_t>{0, 13, 21, 25}));
  auto tokens = toks(l.out);
  EXPECT_EQ(tokens[3], (Tok{K::Comment, "// c", 1, 8}));
  EXPECT_EQ(tokens[4], (Tok{K::Identifier, "int", 2, 1}));
  EXPECT_EQ(tokens[7], (Tok{K::String, "\"s", 3, 1}));
  EXPECT_EQ(tokens[8], (Tok{K::Identifier, "x", 4, 1}));
  EXPECT_EQ(tokens[9], (Tok{K::Identifier, "y", 4, 3}));
}

TEST(CudaLexer, ByteOrderMarkIsSkippedAsWhitespace) {
  Lexed l;
  lex(l, "\xEF\xBB\xBF#include <a.h>\nint x;");
  EXPECT_EQ(toks(l.out)[0], (Tok{K::DirectiveStart, "#include", 1, 4}));
  EXPECT_EQ(texts_of(l.out, K::Other).size(), 0u);
  Lexed m;
  lex(m, "x \xEF\xBB\xBF");  // not at offset 0: identifier bytes
  EXPECT_EQ(texts_of(m.out, K::Identifier).size(), 2u);
}

TEST(CudaLexer, UnterminatedBlockCommentAtEof) {
  Lexed l;
  lex(l, "int x;\n  /* open\n comment");
  const Token& last = l.out.tokens.back();
  EXPECT_EQ(last.kind, K::Comment);
  EXPECT_EQ(last.flags & k_token_unterminated, k_token_unterminated);
  EXPECT_EQ(l.out.text(last), "/* open\n comment");
  ASSERT_EQ(l.out.diagnostics.size(), 1u);
  EXPECT_EQ(l.out.diagnostics[0].message, "unterminated block comment");
  EXPECT_EQ(l.out.diagnostics[0].line, 2u);
  EXPECT_EQ(l.out.diagnostics[0].column, 3u);
}

TEST(CudaLexer, UnterminatedStringStopsAtNewlineAndLexingContinues) {
  Lexed l;
  lex(l, "s = \"abc\r\nint x; c = 'd\nint y;");
  auto tokens = toks(l.out);
  EXPECT_EQ(tokens[2], (Tok{K::String, "\"abc", 1, 5}));
  EXPECT_EQ(l.out.tokens[2].flags & k_token_unterminated, k_token_unterminated);
  EXPECT_EQ(tokens[3], (Tok{K::Identifier, "int", 2, 1}));
  EXPECT_EQ(tokens[8], (Tok{K::Char, "'d", 2, 12}));
  EXPECT_EQ(tokens[9], (Tok{K::Identifier, "int", 3, 1}));
  ASSERT_EQ(l.out.diagnostics.size(), 2u);
  EXPECT_EQ(l.out.diagnostics[0].message, "unterminated string literal");
  EXPECT_EQ(l.out.diagnostics[0].line, 1u);
  EXPECT_EQ(l.out.diagnostics[0].column, 5u);
  EXPECT_EQ(l.out.diagnostics[1].message, "unterminated character literal");
  EXPECT_EQ(l.out.diagnostics[1].line, 2u);
  EXPECT_EQ(l.out.diagnostics[1].column, 12u);
}

TEST(CudaLexer, StringAtEofAndEscapedNewlineInString) {
  Lexed l;
  lex(l, "a = \"one\\\ntwo\"; b = \"x\\");
  EXPECT_EQ(texts_of(l.out, K::String), (std::vector<std::string>{"\"one\\\ntwo\"", "\"x\\"}));
  ASSERT_EQ(l.out.diagnostics.size(), 1u);
  EXPECT_EQ(l.out.diagnostics[0].line, 2u);
  EXPECT_EQ(l.out.diagnostics[0].column, 11u);
}

TEST(CudaLexer, UnterminatedRawStringRunsToEof) {
  Lexed l;
  lex(l, "int a;\nauto s = R\"d(text )\"\nmore");
  const Token& last = l.out.tokens.back();
  EXPECT_EQ(last.kind, K::String);
  EXPECT_EQ(l.out.text(last), "R\"d(text )\"\nmore");
  EXPECT_EQ(last.flags & k_token_unterminated, k_token_unterminated);
  ASSERT_EQ(l.out.diagnostics.size(), 1u);
  EXPECT_EQ(l.out.diagnostics[0].message, "unterminated raw string");
  EXPECT_EQ(l.out.diagnostics[0].line, 2u);
  EXPECT_EQ(l.out.diagnostics[0].column, 10u);
}

TEST(CudaLexer, HipBranchAndItsElse) {
  Lexed l;
  lex(l, "#ifdef __HIP_PLATFORM_AMD__\nhip_code();\n#else\ncuda_code();\n#endif\nboth();");
  EXPECT_EQ(context_of(l.out, "hip_code"), C::Hip);
  EXPECT_EQ(context_of(l.out, "cuda_code"), C::CudaDevice);
  EXPECT_EQ(context_of(l.out, "both"), C::Neutral);
  for (const Token& token : l.out.tokens) {
    if (token.in_directive()) {  // directive tokens carry the enclosing (neutral) context
      EXPECT_EQ(token.context, C::Neutral) << l.out.text(token);
    }
  }
  EXPECT_TRUE(l.out.diagnostics.empty());
}

TEST(CudaLexer, ElifChainAndDirectiveTokenContexts) {
  Lexed l;
  lex(l,
      "#if defined(USE_ROCM)\na();\n#elif defined(__CUDA_ARCH__)\nb();\n#elif FOO\nc();\n"
      "#else\nd();\n#endif");
  EXPECT_EQ(context_of(l.out, "a"), C::Hip);
  EXPECT_EQ(context_of(l.out, "b"), C::CudaDevice);
  EXPECT_EQ(context_of(l.out, "c"), C::CudaDevice);  // not USE_ROCM: CUDA side
  EXPECT_EQ(context_of(l.out, "d"), C::CudaDevice);
  EXPECT_EQ(context_of(l.out, "__CUDA_ARCH__"), C::Neutral);
  EXPECT_EQ(context_of(l.out, "FOO"), C::Neutral);
}

TEST(CudaLexer, NestedHipInsideCudaAndConditionContext) {
  Lexed l;
  lex(l,
      "#ifdef __CUDA_ARCH__\ndev();\n#ifdef USE_ROCM\nhip();\n#else\ncuda();\n#endif\n"
      "more_dev();\n#endif\nhost();");
  EXPECT_EQ(context_of(l.out, "dev"), C::CudaDevice);
  EXPECT_EQ(context_of(l.out, "USE_ROCM"), C::CudaDevice);  // the condition: enclosing level
  // __CUDA_ARCH__ (nvcc only) and USE_ROCM (the AMD build only) never hold together.
  EXPECT_EQ(context_of(l.out, "hip"), C::Dead);
  EXPECT_EQ(context_of(l.out, "cuda"), C::CudaDevice);
  EXPECT_EQ(context_of(l.out, "more_dev"), C::CudaDevice);
  EXPECT_EQ(context_of(l.out, "host"), C::Neutral);
}

TEST(CudaLexer, ElseOfCudaArchIsHostCodeForBothPlatforms) {
  Lexed l;
  lex(l, "#if __CUDA_ARCH__ >= 800\nfast();\n#else\nfallback();\n#endif");
  EXPECT_EQ(context_of(l.out, "fast"), C::CudaDevice);
  EXPECT_EQ(context_of(l.out, "fallback"), C::Neutral);
}

TEST(CudaLexer, TwoHundredDeepNestedIf) {
  std::string source = "#if defined(GGML_USE_HIP)\n";
  for (int i = 1; i < 200; ++i) {
    source += "#if FOO" + std::to_string(i) + "\n";
  }
  source += "deepest();\n";
  for (int i = 0; i < 200; ++i) {
    source += "#endif\n";
  }
  source += "after();\n";
  Lexed l;
  lex(l, source);
  EXPECT_EQ(context_of(l.out, "deepest"), C::Hip);
  EXPECT_EQ(context_of(l.out, "after"), C::Neutral);
  EXPECT_EQ(context_of(l.out, "FOO199"), C::Hip);
  EXPECT_TRUE(l.out.diagnostics.empty());
  EXPECT_EQ(texts_of(l.out, K::DirectiveStart).size(), 400u);
}

TEST(CudaLexer, NestingPastTheCapIsNeutralWithOneDiagnostic) {
  std::string source = "#ifdef USE_ROCM\n";
  for (int i = 0; i < 5000; ++i) {
    source += "#if X\n";
  }
  source += "deep();\n#else\nelse_deep();\n";
  for (int i = 0; i < 5001; ++i) {
    source += "#endif\n";
  }
  source += "after();";
  Lexed l;
  lex(l, source);
  ASSERT_EQ(l.out.diagnostics.size(), 1u);
  EXPECT_EQ(l.out.diagnostics[0].line, 4097u);
  EXPECT_THAT(l.out.diagnostics[0].message, ::testing::HasSubstr("nesting deeper"));
  EXPECT_EQ(context_of(l.out, "deep"), C::Hip);  // the capped levels are neutral
  EXPECT_EQ(context_of(l.out, "else_deep"), C::Hip);
  EXPECT_EQ(context_of(l.out, "after"), C::Neutral);
}

TEST(CudaLexer, UnbalancedEndifIsReportedAndIgnored) {
  Lexed l;
  lex(l, "int a;\n  #endif\n#ifdef USE_ROCM\nx();\n#endif\n#else\ny();");
  ASSERT_EQ(l.out.diagnostics.size(), 2u);
  EXPECT_EQ(l.out.diagnostics[0].message, "#endif without #if");
  EXPECT_EQ(l.out.diagnostics[0].line, 2u);
  EXPECT_EQ(l.out.diagnostics[0].column, 3u);
  EXPECT_EQ(l.out.diagnostics[1].message, "#else without #if");
  EXPECT_EQ(l.out.diagnostics[1].line, 6u);
  EXPECT_EQ(context_of(l.out, "x"), C::Hip);
  EXPECT_EQ(context_of(l.out, "y"), C::Neutral);
}

TEST(CudaLexer, FirstHipTokenIsTheFirstTokenOfAHipBranch) {
  Lexed l;
  lex(l, "int a;\n#ifdef USE_ROCM\n// rocm\nint h;\n#endif\nint h2;\n");
  ASSERT_NE(l.out.first_hip_token, TokenStream::k_no_token);
  EXPECT_EQ(l.out.text(l.out.tokens[l.out.first_hip_token]), "// rocm");
  // An empty HIP branch: the #else that closes it comes first, so no token is in it.
  lex(l, "#ifdef USE_ROCM\n#else\nint c;\n#endif\n");
  EXPECT_EQ(l.out.first_hip_token, TokenStream::k_no_token);
  // A HIP branch opened at the end of the file holds no token either.
  lex(l, "int a;\n#ifdef __HIP_PLATFORM_AMD__\n");
  EXPECT_EQ(l.out.first_hip_token, TokenStream::k_no_token);
  // Inside a HIP branch, a nested #else is still HIP code.
  lex(l, "#if USE_ROCM\n#ifdef X\n#else\nint y;\n#endif\n#endif\n");
  ASSERT_NE(l.out.first_hip_token, TokenStream::k_no_token);
  EXPECT_EQ(l.out.text(l.out.tokens[l.out.first_hip_token]), "#ifdef");
}

TEST(CudaLexer, UnterminatedIfIsReportedAtItsLine) {
  Lexed l;
  lex(l, "int a;\n #if FOO\n#ifdef __HIPCC__\nint b;\n#endif\n");
  ASSERT_EQ(l.out.diagnostics.size(), 1u);
  EXPECT_EQ(l.out.diagnostics[0].message, "unterminated #if");
  EXPECT_EQ(l.out.diagnostics[0].line, 2u);
  EXPECT_EQ(l.out.diagnostics[0].column, 2u);
}

TEST(CudaLexer, ReusedStreamIsClearedFirst) {
  TokenStream out;
  std::string first = "#if X\nint a; /*";
  lex_cuda(first, out);
  std::string second = "b";
  lex_cuda(second, out);
  EXPECT_EQ(out.tokens.size(), 1u);
  EXPECT_TRUE(out.diagnostics.empty());
  EXPECT_EQ(out.line_starts, std::vector<std::uint32_t>{0});
  EXPECT_EQ(out.source, "b");
}

TEST(CudaLexer, OneMegabyteSingleLine) {
  std::string source;
  while (source.size() < (1u << 20)) {
    source += "a+b*c<<<1,2>>>(\"s\") ";
  }
  Lexed l;
  lex(l, source);
  EXPECT_EQ(l.out.line_starts.size(), 1u);
  std::size_t repeats = source.size() / 20;
  EXPECT_EQ(l.out.tokens.size(), repeats * 13);
  EXPECT_EQ(l.out.tokens.back().line, 1u);
  EXPECT_EQ(l.out.column(l.out.tokens.back()), source.size() - 1);
  EXPECT_TRUE(l.out.diagnostics.empty());
}

TEST(CudaLexer, RandomBytesKeepInvariants) {
  std::mt19937 rng(12345);
  static const char k_alphabet[] = "#/*\"'\\\nR(x)<>.0e+_ \r\x00\xff\xc3u8LdefinUSE_ROCM";
  const std::string alphabet(k_alphabet, sizeof(k_alphabet) - 1);
  for (int round = 0; round < 400; ++round) {
    std::string source(rng() % 600, '\0');
    bool structured = round % 2 == 0;
    for (char& c : source) {
      c = structured ? alphabet[rng() % alphabet.size()] : static_cast<char>(rng() & 0xff);
    }
    TokenStream out;
    lex_cuda(source, out);
    ASSERT_EQ(check_token_invariants(out), "") << "round " << round;
  }
}

TEST(CudaLexer, NulAndInvalidUtf8DoNotBreakTokens) {
  std::string source("int\0x = 1;\n\xff\xfe\xc3 y;", 17);
  Lexed l;
  lex(l, source);
  EXPECT_EQ(texts_of(l.out, K::Other), (std::vector<std::string>{std::string(1, '\0')}));
  EXPECT_EQ(texts_of(l.out, K::Identifier),
            (std::vector<std::string>{"int", "x", "\xff\xfe\xc3", "y"}));
}

}  // namespace
}  // namespace gpuport
