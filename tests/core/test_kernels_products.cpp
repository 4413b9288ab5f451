// The product family (core/kernels/products.h): the fixed order is exactly "every C(i,j) summed over k in order from
// +0, one multiply then one add per term" (checked against a plain triple loop, bit for bit, in float and double,
// on blocks with row strides), Sum::OntoC adds each term onto C in turn (not C + A·B), the transposed forms give the
// same bits as the product with the transpose copied out, and Eigen's order is Eigen's product.
#include <gtest/gtest.h>

#include <cstring>
#include <iterator>

#include "core/kernels/products.h"
#include "core/random.h"

using namespace attn;
using namespace attn::kernels;

namespace {

template <typename T>
MatrixT<T> randomMatrixT(Rng& rng, int rows, int cols) {
  MatrixT<T> M(rows, cols);
  for (Eigen::Index i = 0; i < M.size(); ++i) M.data()[i] = static_cast<T>(rng.normal());
  return M;
}

// C(i,j) = ((start + A(i,0)·B(0,j)) + A(i,1)·B(1,j)) + …, one rounding per operation.
template <typename T>
MatrixT<T> tripleLoop(const MatrixT<T>& A, const MatrixT<T>& B, const MatrixT<T>& start) {
  MatrixT<T> C = start;
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < B.cols(); ++j) {
      T sum = C(i, j);
      for (Eigen::Index k = 0; k < A.cols(); ++k) {
        const volatile T term = A(i, k) * B(k, j);  // volatile: rounded to T before the add, whatever the compiler
        sum = sum + term;
      }
      C(i, j) = sum;
    }
  return C;
}

template <typename T>
bool sameBitsT(const MatrixT<T>& a, const MatrixT<T>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), static_cast<size_t>(a.size()) * sizeof(T)) == 0);
}

template <typename T>
void checkFixedOrder() {
  Rng rng(11);
  const int shapes[][3] = {{1, 1, 1}, {3, 5, 2}, {4, 4, 4}, {7, 13, 9}, {9, 1, 17}, {16, 33, 8}, {5, 0, 3}, {0, 3, 4}};
  for (const auto& s : shapes) {
    const int M = s[0], K = s[1], N = s[2];
    const MatrixT<T> A = randomMatrixT<T>(rng, M, K), B = randomMatrixT<T>(rng, K, N);
    const MatrixT<T> zero = MatrixT<T>::Zero(M, N), start = randomMatrixT<T>(rng, M, N);
    const MatrixT<T> want = tripleLoop<T>(A, B, zero);
    MatrixT<T> C = MatrixT<T>::Constant(M, N, T(99));  // overwritten
    productFixed<T>(A, B, C);
    EXPECT_TRUE(sameBitsT<T>(C, want)) << M << "x" << K << "x" << N;
    EXPECT_TRUE(sameBitsT<T>(productFixed<T>(A, B), want)) << "returning form " << M << "x" << K << "x" << N;
    MatrixT<T> onto = start;
    productFixed<T>(A, B, onto, Sum::OntoC);
    EXPECT_TRUE(sameBitsT<T>(onto, tripleLoop<T>(A, B, start))) << "OntoC " << M << "x" << K << "x" << N;
    // Aᵀ·B with A given as (K,M), A·Bᵀ with B given as (N,K): the same bits as with the transposes copied out
    const MatrixT<T> At = A.transpose(), Bt = B.transpose();
    MatrixT<T> ta(M, N), tb(M, N);
    productFixedTransA<T>(At, B, ta);
    productFixedTransB<T>(A, Bt, tb);
    EXPECT_TRUE(sameBitsT<T>(ta, want)) << "TransA " << M << "x" << K << "x" << N;
    EXPECT_TRUE(sameBitsT<T>(tb, want)) << "TransB " << M << "x" << K << "x" << N;
    EXPECT_TRUE(sameBitsT<T>(scaledProductFixedTransB<T>(A, Bt, nullptr), want));
    const T scale = T(0.37);
    const MatrixT<T> scaled = scaledProductFixedTransB<T>(A, Bt, &scale);
    EXPECT_TRUE(sameBitsT<T>(scaled, MatrixT<T>(want * scale))) << "scale after the sums";
  }
}

}  // namespace

TEST(KernelsProducts, FixedOrderIsTheTripleLoopFloat) { checkFixedOrder<float>(); }

// The in-place products never throw (no allocation: A·Bᵀ copies Bᵀ into a reused scratch buffer), so under
// Emscripten's exceptions a call to them is a plain wasm call, not a trip through JavaScript (products.h). The scratch
// buffer is reused across shapes, larger and smaller, and Sum::OntoC works through it as through productFixed.
TEST(KernelsProducts, InPlaceProductsAreNoexceptAndReuseTheScratch) {
  // A noexcept function pointer takes only a noexcept function (C++17: noexcept is part of the type).
  using FloatProduct = void (*)(const ConstRef<float>&, const ConstRef<float>&, MutRef<float>, Sum) noexcept;
  using DoubleProduct = void (*)(const ConstRef<double>&, const ConstRef<double>&, MutRef<double>, Sum) noexcept;
  const FloatProduct floatProducts[] = {&productFixed<float>, &productFixedTransA<float>, &productFixedTransB<float>};
  const DoubleProduct doubleProducts[] = {&productFixed<double>, &productFixedTransA<double>,
                                          &productFixedTransB<double>};
  EXPECT_EQ(std::size(floatProducts) + std::size(doubleProducts), 6u);
  Rng rng(5);
  for (const int n : {40, 3, 17, 64, 1}) {  // (n,n+1)·(n+2,n+1)ᵀ -> (n,n+2), onto a start
    const MatrixT<float> A = randomMatrixT<float>(rng, n, n + 1), B = randomMatrixT<float>(rng, n + 2, n + 1);
    const MatrixT<float> start = randomMatrixT<float>(rng, n, n + 2);
    MatrixT<float> C = start;
    productFixedTransB<float>(A, B, C, Sum::OntoC);
    EXPECT_TRUE(sameBitsT<float>(C, tripleLoop<float>(A, MatrixT<float>(B.transpose()), start))) << n;
  }
}
TEST(KernelsProducts, FixedOrderIsTheTripleLoopDouble) { checkFixedOrder<double>(); }

// Head h's columns of a wider matrix (a view with the full row stride), in and out: the same sums as on copies.
TEST(KernelsProducts, FixedOrderOnStridedBlocks) {
  Rng rng(12);
  const MatrixT<float> X = randomMatrixT<float>(rng, 6, 10), W = randomMatrixT<float>(rng, 10, 12);
  MatrixT<float> out = MatrixT<float>::Zero(6, 12);
  for (int head = 0; head < 3; ++head) productFixed<float>(X, W.middleCols(head * 4, 4), out.middleCols(head * 4, 4));
  for (int head = 0; head < 3; ++head) {
    const MatrixT<float> Wh = W.middleCols(head * 4, 4);
    EXPECT_TRUE(sameBitsT<float>(out.middleCols(head * 4, 4), productFixed<float>(X, Wh))) << head;
  }
}

// Sum::OntoC is not C + (A·B): for some entries the two roundings differ (the training engine relies on the former).
TEST(KernelsProducts, OntoCIsNotCPlusProduct) {
  Rng rng(13);
  const MatrixT<float> A = randomMatrixT<float>(rng, 8, 16), B = randomMatrixT<float>(rng, 16, 8);
  const MatrixT<float> start = randomMatrixT<float>(rng, 8, 8);
  MatrixT<float> onto = start;
  productFixed<float>(A, B, onto, Sum::OntoC);
  const MatrixT<float> separate = start + productFixed<float>(A, B);
  EXPECT_FALSE(sameBitsT<float>(onto, separate));
  EXPECT_LT((onto - separate).cwiseAbs().maxCoeff(), 1e-4f);
}

// Eigen's order is Eigen's product (natively; in wasm gemmF64EigenOrder, checked by ctest wasm_gemm_f64_order).
TEST(KernelsProducts, EigenOrderIsEigensProduct) {
  Rng rng(14);
  const Matrix A = randomMatrixT<double>(rng, 64, 512), B = randomMatrixT<double>(rng, 512, 64);
  const Matrix eigen = A * B;
  EXPECT_TRUE(sameBits(productEigenOrder(A, B), eigen));
  EXPECT_TRUE(sameBits(product<double>(A, B), eigen));
  const Matrix Bt = B.transpose();
  EXPECT_TRUE(sameBits(productTransBEigenOrder(A, Bt), Matrix(A * Bt.transpose())));
}

// PreparedWeight.times gives product<T>'s very bits.
TEST(KernelsProducts, PreparedWeightTimesIsProduct) {
  Rng rng(15);
  const MatrixT<float> X = randomMatrixT<float>(rng, 9, 20), W = randomMatrixT<float>(rng, 20, 18);
  EXPECT_TRUE(sameBitsT<float>(PreparedWeight<float>(W).times(X), product<float>(X, W)));
  const Matrix Xd = X.cast<double>(), Wd = W.cast<double>();
  EXPECT_TRUE(sameBits(PreparedWeight<double>(Wd).times(Xd), product<double>(Xd, Wd)));
}
