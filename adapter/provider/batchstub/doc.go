// Package batchstub is an httptest server that speaks the providers' synchronous and
// batch APIs as their documentation describes them, for the tests of batch mode: OpenAI's
// Chat Completions, Files (multipart upload, content) and Batches (create, retrieve,
// cancel), and Anthropic's Messages and Message Batches (create, retrieve, results,
// cancel). One answer function serves both the synchronous requests and every request of
// a batch, so that a batch run can be compared with a synchronous one against the same
// server; batches can be held, expired, cancelled and partly failed. Only tests import it.
package batchstub
