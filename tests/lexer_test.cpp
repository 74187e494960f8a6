#include <gtest/gtest.h>
TEST(Lexer, Placeholder) {}
