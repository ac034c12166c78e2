"""Paddle's own autograd unit-test themes in Paddle's style (unittest.TestCase classes, the dygraph
guard, NumPy asserts): the backward API, double grad, PyLayer, the backward-graph dump, tensor hooks
and the grad-mode decorators. Each class runs on flowgrad.paddle and on real paddle 3.3.1."""
from __future__ import annotations

import os
import tempfile

import numpy as np

from paddle_isolation import on_both_paddles


@on_both_paddles
class BackwardAPI:
    def test_backward_with_grad_tensors(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x_np = np.array([[1.0, 2.0], [3.0, 4.0]], dtype="float32")
            x = paddle.to_tensor(x_np, stop_gradient=False)
            y1 = x * x
            y2 = paddle.sum(x * 3.0)
            g1 = paddle.to_tensor(np.full([2, 2], 0.5, "float32"))
            paddle.autograd.backward([y1, y2], [g1, None])
            np.testing.assert_allclose(x.grad.numpy(), 2 * x_np * 0.5 + 3.0, rtol=1e-6)

    def test_backward_accumulates(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
            for _ in range(2):
                paddle.autograd.backward([paddle.sum(x * x)])
            np.testing.assert_allclose(x.grad.numpy(), 4 * np.array([1.0, 2.0]), rtol=1e-6)
            x.clear_grad()
            np.testing.assert_array_equal(x.grad.numpy(), np.zeros([2], "float32"))

    def test_retain_graph(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0, 2.0, 3.0], "float32"), stop_gradient=False)
            y = paddle.sum(x * x)
            paddle.autograd.backward([y], retain_graph=True)
            paddle.autograd.backward([y])
            np.testing.assert_allclose(x.grad.numpy(), 4 * np.array([1.0, 2.0, 3.0]), rtol=1e-6)
            with self.assertRaises(SystemError) as ctx:
                y.backward()
            self.assertIn("The TensorWrappers of SumGradNode do not exist", str(ctx.exception))

    def test_grad_tensors_count_mismatch(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
            y = x * 2
            with self.assertRaises(AssertionError):
                paddle.autograd.backward([y], [paddle.ones([2]), paddle.ones([2])])
            self.assertIsNone(x.grad)


@on_both_paddles
class DoubleGrad:
    def test_create_graph_second_order(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x_np = np.array([0.5, -1.0, 2.0], "float64")
            x = paddle.to_tensor(x_np, stop_gradient=False)
            y = x * x * x
            (dx,) = paddle.grad([y], [x], create_graph=True)
            self.assertFalse(dx.stop_gradient)
            np.testing.assert_allclose(dx.numpy(), 3 * x_np ** 2, rtol=1e-12)
            (ddx,) = paddle.grad([dx], [x])
            np.testing.assert_allclose(ddx.numpy(), 6 * x_np, rtol=1e-12)

    def test_double_grad_into_backward(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x_np = np.array([[1.0, 2.0], [0.5, -3.0]], "float32")
            x = paddle.to_tensor(x_np, stop_gradient=False)
            y = paddle.tanh(x)
            (dx,) = paddle.grad([y], [x], create_graph=True)
            paddle.sum(dx * dx).backward()
            t = np.tanh(x_np)
            expected = 2 * (1 - t ** 2) * (-2 * t * (1 - t ** 2))
            np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-5, atol=1e-6)

    def test_allow_unused(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0, 3.0], "float32"), stop_gradient=False)
            w = paddle.to_tensor(np.array([2.0, 2.0], "float32"), stop_gradient=False)
            y = x * x
            with self.assertRaises(ValueError) as ctx:
                paddle.grad([y], [x, w], retain_graph=True)
            self.assertIn("The 1-th input does not appear in the backward graph", str(ctx.exception))
            dx, dw = paddle.grad([y], [x, w], allow_unused=True)
            np.testing.assert_allclose(dx.numpy(), [2.0, 6.0])
            self.assertIsNone(dw)

    def test_no_grad_vars(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
            w = paddle.to_tensor(np.array([3.0, 4.0], "float32"), stop_gradient=False)
            z = x * w
            out = paddle.sum(z * z + x)
            (dx,) = paddle.grad([out], [x], no_grad_vars=[z])
            np.testing.assert_allclose(dx.numpy(), [1.0, 1.0])
            self.assertIsNone(x.grad)


@on_both_paddles
class PyLayerCases:
    def _layers(self):
        paddle = self.paddle

        class Cube(paddle.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x, scale):
                ctx.save_for_backward(x)
                ctx.scale = scale
                return x * x * x * scale

            @staticmethod
            def backward(ctx, dy):
                (x,) = ctx.saved_tensor()
                return dy * 3 * x * x * ctx.scale

        class SplitSign(paddle.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                pos, idx = paddle.nn.functional.relu(x), paddle.argmax(x)
                ctx.mark_non_differentiable(idx)
                ctx.save_for_backward(x)
                return pos, x * 2, idx

            @staticmethod
            def backward(ctx, d_pos, d_twice, d_idx):
                (x,) = ctx.saved_tensor()
                mask = paddle.cast(x > 0, x.dtype)
                return d_pos * mask + d_twice * 2

        return Cube, SplitSign

    def test_forward_backward_saved_tensor(self):
        paddle = self.paddle
        Cube, _ = self._layers()
        with paddle.base.dygraph.guard():
            x_np = np.array([1.0, -2.0, 0.5], "float32")
            x = paddle.to_tensor(x_np, stop_gradient=False)
            y = Cube.apply(x, 2.0)
            np.testing.assert_allclose(y.numpy(), 2 * x_np ** 3, rtol=1e-6)
            y.mean().backward()
            np.testing.assert_allclose(x.grad.numpy(), 6 * x_np ** 2 / 3, rtol=1e-6)

    def test_multiple_outputs_non_differentiable(self):
        paddle = self.paddle
        _, SplitSign = self._layers()
        with paddle.base.dygraph.guard():
            x_np = np.array([1.0, -2.0, 3.0], "float32")
            x = paddle.to_tensor(x_np, stop_gradient=False)
            pos, twice, idx = SplitSign.apply(x)
            self.assertTrue(idx.stop_gradient)
            self.assertFalse(pos.stop_gradient)
            self.assertEqual(int(idx), 2)
            paddle.sum(pos + twice).backward()
            np.testing.assert_allclose(x.grad.numpy(), (x_np > 0) + 2.0)

    def test_pylayer_double_grad(self):
        paddle = self.paddle

        class Square(paddle.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, dy):
                (x,) = ctx.saved_tensor()
                return 2 * x * dy

        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.5, -0.5], "float64"), stop_gradient=False)
            (dx,) = paddle.grad([Square.apply(x)], [x], create_graph=True)
            (ddx,) = paddle.grad([dx], [x])
            np.testing.assert_allclose(dx.numpy(), [3.0, -1.0])
            np.testing.assert_allclose(ddx.numpy(), [2.0, 2.0])

    def test_backward_returning_too_many(self):
        paddle = self.paddle

        class Bad(paddle.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, dy):
                return dy, dy

        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0], "float32"), stop_gradient=False)
            with self.assertRaises(ValueError):
                Bad.apply(x).backward()


@on_both_paddles
class DumpBackwardGraph:
    def test_dump_files_written(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard(), tempfile.TemporaryDirectory() as root:
            path = os.path.join(root, "dump")
            x = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
            y = paddle.sum(paddle.exp(x) * x)
            y.backward(dump_backward_graph_path=path)
            names = sorted(os.listdir(path))
            self.assertEqual(len(names), 3)
            suffixes = sorted(n.split("_", 2)[-1] for n in names)
            self.assertEqual(suffixes, ["backward_graph.dot", "call_stack.log", "ref_forward_graph.dot"])
            with open(os.path.join(path, next(n for n in names if n.endswith("_backward_graph.dot")))) as f:
                graph = f.read()
            for node in ("SumGradNode", "MultiplyGradNode", "ExpGradNode", "GradNodeAccumulation"):
                self.assertIn(node, graph)
            np.testing.assert_allclose(x.grad.numpy(), np.exp([1.0, 2.0]) * np.array([2.0, 3.0]), rtol=1e-6)

    def test_dump_through_autograd_backward(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard(), tempfile.TemporaryDirectory() as root:
            path = os.path.join(root, "dump")
            x = paddle.to_tensor(np.array([3.0], "float32"), stop_gradient=False)
            paddle.autograd.backward([paddle.sum(x * x)], dump_backward_graph_path=path)
            self.assertEqual(len(os.listdir(path)), 3)
            np.testing.assert_allclose(x.grad.numpy(), [6.0])


@on_both_paddles
class TensorHooks:
    def test_hook_on_intermediate_scales_gradient(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
            y = x * x
            seen = []
            y.register_hook(lambda g: seen.append(g.numpy()) or g * 10)
            paddle.sum(y).backward()
            np.testing.assert_allclose(seen[0], [1.0, 1.0])
            np.testing.assert_allclose(x.grad.numpy(), [20.0, 40.0])

    def test_hook_on_leaf_and_removal(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
            helper = x.register_hook(lambda g: g * 2)
            paddle.sum(x * 3).backward()
            np.testing.assert_allclose(x.grad.numpy(), [6.0, 6.0])
            self.assertTrue(helper.remove())
            x.clear_grad()
            paddle.sum(x * 3).backward()
            np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])

    def test_hook_returning_none_keeps_gradient(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
            y = x * 2
            y.register_hook(lambda g: None)
            paddle.sum(y).backward()
            np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])

    def test_hook_on_stop_gradient_tensor_raises(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0], "float32"))
            with self.assertRaises(RuntimeError) as ctx:
                x.register_hook(lambda g: g)
            self.assertIn("Cannot register hook on a tensor that stop gradient", str(ctx.exception))


@on_both_paddles
class GradModeDecorators:
    def test_no_grad_context_and_decorators(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0], "float32"), stop_gradient=False)
            with paddle.no_grad():
                self.assertTrue((x * 2).stop_gradient)
            self.assertFalse((x * 2).stop_gradient)

            @paddle.no_grad()
            def called(t):
                return t * 2

            self.assertTrue(called(x).stop_gradient)
            with self.assertRaises(TypeError) as ctx:  # paddle's no_grad decorates only once instantiated
                paddle.no_grad(called)
            self.assertIn("takes no arguments", str(ctx.exception))
            self.assertTrue(paddle.is_grad_enabled())

    def test_no_grad_generator(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0], "float32"), stop_gradient=False)

            @paddle.no_grad()
            def gen():
                for _ in range(2):
                    yield x * 2

            self.assertEqual([t.stop_gradient for t in gen()], [True, True])
            self.assertTrue(paddle.is_grad_enabled())

    def test_enable_grad_inside_no_grad(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0], "float32"), stop_gradient=False)

            @paddle.enable_grad()
            def tracked(t):
                return t * 2

            with paddle.no_grad():
                self.assertFalse(tracked(x).stop_gradient)
                with paddle.enable_grad():
                    self.assertFalse((x * 2).stop_gradient)
                self.assertFalse(paddle.is_grad_enabled())

    def test_set_grad_enabled(self):
        paddle = self.paddle
        with paddle.base.dygraph.guard():
            x = paddle.to_tensor(np.array([1.0], "float32"), stop_gradient=False)
            with paddle.set_grad_enabled(False):
                self.assertTrue((x * 2).stop_gradient)
                with paddle.set_grad_enabled(True):
                    self.assertFalse((x * 2).stop_gradient)
            self.assertTrue(paddle.is_grad_enabled())
            paddle.set_grad_enabled(False)
            self.assertFalse(paddle.is_grad_enabled())
            paddle.set_grad_enabled(True)
            self.assertTrue(paddle.is_grad_enabled())
