// The GPT-2 download panel's line after Close (src/ui/gpt2_download.h): the platform's last phase was "open", but
// with no GPT-2 model open the panel must not say "GPT-2 is open" (fails before s34: it did).
#include <gtest/gtest.h>

#include <string>

#include "ui/app_state.h"
#include "ui/gpt2_download.h"
#include "ui/i18n/i18n.h"

namespace {

TEST(Gpt2DownloadPanel, AfterCloseItNoLongerSaysOpen) {
  ui::setLanguage(ui::Lang::En);
  ui::AppState s;
  s.gpt2Download.phase = "open";  // the platform reported the download opened; then the user pressed Close
  s.gpt2Download.cached = 549e6;
  s.gpt2Download.kept = true;
  const std::string kept = ui::gpt2DownloadStatusText(s);
  EXPECT_EQ(kept.find("is open"), std::string::npos) << kept;
  EXPECT_NE(kept.find("549"), std::string::npos) << kept;  // the files are still in this browser: it says so
  s.gpt2Download.cached = 0;  // opened but not kept (no Cache Storage): nothing to say
  s.gpt2Download.kept = false;
  s.gpt2Download.storage = "missing";
  EXPECT_EQ(ui::gpt2DownloadStatusText(s), "");
}

}  // namespace
