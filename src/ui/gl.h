// OpenGL headers for the UI's own drawing (the heatmap shader): GLES 3.0 under Emscripten (WebGL2), desktop GL
// 3.3 core otherwise. Mesa's libGL exports the 3.3 entry points, so prototypes are enough on Linux.
#pragma once
#ifndef ATTN_UI_NO_GL
#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#define ATTN_GLSL_VERSION "#version 300 es\n"
#else
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#define ATTN_GLSL_VERSION "#version 330 core\n"
#endif
#endif
