// Which layout the page uses, decided in one place from the size of the page in CSS pixels (and the device pixel
// ratio, to turn CSS sizes into the framebuffer pixels ImGui works in).
//
//   wide:   the step list and model controls in a sidebar, Back/Next/Play above the step, the inspector below it.
//   narrow: (phones, portrait tablets) the step list and controls in a drawer opened by "☰"; a sticky bar at the
//           bottom with Back / step title / Next; the matrices of a step stacked vertically; the pinned cell's
//           arithmetic in a sheet from the bottom; every control at least kTouchTargetCss tall for a finger.
#pragma once

namespace ui {

constexpr float kNarrowBelowCss = 700.0f;         // narrower than this: narrow layout
constexpr float kPortraitTabletBelowCss = 900.0f; // portrait (taller than wide) and narrower than this: narrow too
constexpr float kTouchTargetCss = 44.0f;          // a finger's target (Apple HIG / WCAG 2.5.5), CSS px

constexpr float kMinContentZoom = 0.5f;           // a pinch scales a step's matrices within these bounds
constexpr float kMaxContentZoom = 4.0f;

struct PageLayout {
  bool narrow = false;
  float cssWidth = 0, cssHeight = 0;  // the canvas in CSS px (0: unknown, e.g. before the platform said)
  float pixelRatio = 1.0f;            // framebuffer pixels per CSS px (device pixel ratio × presentation zoom)

  // A CSS length in the framebuffer pixels ImGui draws in.
  float px(float css) const { return css * pixelRatio; }
  // The smallest height of a control: a finger's target in the narrow layout, ImGui's own frame otherwise.
  float controlHeight() const;
};

// The layout for a canvas of cssWidth × cssHeight CSS px. Landscape phones and tablets get the wide layout when it
// fits (at least kNarrowBelowCss wide); portrait tablets up to kPortraitTabletBelowCss get the narrow one.
PageLayout chooseLayout(float cssWidth, float cssHeight, float pixelRatio);

// Pushes the narrow layout's finger-sized style (frame padding so frames are kTouchTargetCss tall, selectable text
// centred vertically, wider spacing); nothing in the wide layout. Pair with popTouchStyle(layout).
void pushTouchStyle(const PageLayout& layout);
void popTouchStyle(const PageLayout& layout);

}  // namespace ui
