// Issue 29, the GPT-2 steps' sentences true for the model on screen: GPT-2 reads left to right, so Find the head's
// notes on the paper's sentences (find_head.h findHeadExamples) never have the query read a word that comes after
// it. The note on "second" said "only attention brings in “a … please” or “came … exam”": both come after "second".
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "ui/find_head.h"
#include "ui/i18n/i18n.h"

namespace {

// The ASCII words of `text`, lower-cased ("Give me a second, please." -> give me a second please).
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : text + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      out.push_back(word);
      word.clear();
    }
  }
  return out;
}

// The note's clauses: split at '.' and ';' (a denial — "cannot", "never", "not" — holds within its clause).
std::vector<std::string> clauses(const std::string& note) {
  std::vector<std::string> out(1);
  for (const char c : note) {
    if (c == '.' || c == ';') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// The texts between “ and ” in `clause`.
std::vector<std::string> quoted(const std::string& clause) {
  const std::string open = "\u201C", close = "\u201D";
  std::vector<std::string> out;
  for (size_t at = clause.find(open); at != std::string::npos; at = clause.find(open, at + 1)) {
    const size_t end = clause.find(close, at);
    if (end == std::string::npos) break;
    out.push_back(clause.substr(at + open.size(), end - at - open.size()));
  }
  return out;
}

bool denies(const std::string& clause) {
  const std::vector<std::string> w = words(clause);
  return std::any_of(w.begin(), w.end(), [](const std::string& x) { return x == "cannot" || x == "never" || x == "not"; });
}

}  // namespace

TEST(Gpt2Sentences, ExampleNotesNeverHaveTheQueryReadALaterWord) {
  ui::setLanguage(ui::Lang::En);
  int checked = 0;
  for (const ui::FindHeadExample& e : ui::findHeadExamples()) {
    const std::vector<std::string> w = words(e.text);
    const auto query = std::find(w.begin(), w.end(), words(e.query).front());
    const auto key = std::find(w.begin(), w.end(), words(e.key).front());
    ASSERT_NE(query, w.end()) << e.text;
    ASSERT_NE(key, w.end()) << e.text;
    EXPECT_LE(key - w.begin(), query - w.begin()) << e.text << ": the key comes after the query";
    if (e.note == ui::Key::Count) continue;
    // Words whose first appearance is after the query: the query cannot read them.
    std::set<std::string> later;
    for (auto it = query + 1; it != w.end(); ++it)
      if (std::find(w.begin(), query + 1, *it) == query + 1) later.insert(*it);
    for (const std::string& clause : clauses(ui::tr(e.note)))
      for (const std::string& quote : quoted(clause))
        for (const std::string& word : words(quote)) {
          if (!later.count(word)) continue;
          ++checked;
          EXPECT_TRUE(denies(clause)) << e.text << ": the note has \"" << e.query << "\" read \"" << word
                                      << "\", which comes after it:" << clause;
        }
  }
  EXPECT_GT(checked, 0);  // the notes do name later words (to say they cannot be read)
}
