// NumPy's .npy format, read and written (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
// the magic "\x93NUMPY", a version (1.0: a 2-byte header length; 2.0 and 3.0: 4 bytes), a Python dict literal
// {'descr': '<f8', 'fortran_order': False, 'shape': (5, 5), } padded with spaces to a multiple of 64 bytes and ending
// in '\n', then the numbers. What a learner's np.save writes for a float32 or float64 array of 0 to 3 dimensions.
#pragma once
#include <string>

#include "core/io/ndarray.h"

namespace attn {

// Reads a .npy file's bytes. Accepts float32 and float64 ('<f4', '<f8', '>f4', '>f8'), C order, 0 to 3 dimensions.
// Throws InputError (naming `what`, e.g. "result file") for anything else, with the reason: not a .npy file, a
// truncated file, another dtype, fortran_order True (column-major: np.save(f, np.ascontiguousarray(x))), too many
// numbers.
NdArray readNpy(const std::string& bytes, const std::string& what);
bool looksLikeNpy(const std::string& bytes);  // begins with the magic "\x93NUMPY"

// A version 1.0 .npy file: '<f8' (or '<i8' when a.precision is Integer), C order, the header padded to 64 bytes.
std::string writeNpy(const NdArray& a);

}  // namespace attn
