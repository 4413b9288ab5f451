// Touch wording (see i18n.h: setTouchWording): a phone or tablet has no hover, no mouse click, no → or P key, so a
// text that tells the reader to hover, click or press a key has a touch variant saying tap, drag with a finger or
// the sticky bar. tr() reads the variant while the page's pointer is a finger (ui::touchInput, first_run.h).
#include "ui/i18n/i18n.h"

namespace ui {

namespace {

struct TouchVariant {
  Key mouse, touch;
};

// Each key whose text names a mouse or key action, with its touch variant (in strings_en.inc, just after it).
constexpr TouchVariant kTouchVariants[] = {
    {Key::InspectorHint, Key::InspectorHintTouch},
    {Key::StepEmbedExplanation, Key::StepEmbedExplanationTouch},
    {Key::StepScoreExplanation, Key::StepScoreExplanationTouch},
    {Key::StepHeadsExplanation, Key::StepHeadsExplanationTouch},
    {Key::StepLinesExplanation, Key::StepLinesExplanationTouch},
    {Key::StepTrainExplanation, Key::StepTrainExplanationTouch},
    {Key::GridHoverForLabels, Key::GridHoverForLabelsTouch},
    {Key::GridPinnedBelow, Key::GridPinnedBelowTouch},
    {Key::GridClickToPin, Key::GridClickToPinTouch},
    {Key::HeadsTooltip, Key::HeadsTooltipTouch},
    {Key::LinesModeHelp, Key::LinesModeHelpTouch},
    {Key::EmbedCosineHelp, Key::EmbedCosineHelpTouch},
    {Key::TokGpt2Help, Key::TokGpt2HelpTouch},
    {Key::LabDkHelp, Key::LabDkHelpTouch},
    {Key::LabSweepNote, Key::LabSweepNoteTouch},
    {Key::TrainNotYet, Key::TrainNotYetTouch},
    {Key::TrainScaleHelp, Key::TrainScaleHelpTouch},
    {Key::PresentationKeys, Key::PresentationKeysTouch},
    {Key::GoalText, Key::GoalTextTouch},
    {Key::GoalHint, Key::GoalHintTouch},
};

bool g_touchWording = false;

}  // namespace

void setTouchWording(bool touch) { g_touchWording = touch; }
bool touchWording() { return g_touchWording; }

Key touchVariant(Key key) {
  for (const TouchVariant& v : kTouchVariants)
    if (v.mouse == key) return v.touch;
  return key;
}

int touchVariantCount() { return static_cast<int>(sizeof kTouchVariants / sizeof kTouchVariants[0]); }
Key touchVariantAt(int i, Key* mouse) {
  *mouse = kTouchVariants[i].mouse;
  return kTouchVariants[i].touch;
}

}  // namespace ui
