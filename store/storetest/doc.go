// Package storetest is the conformance suite of store.Store: Run checks an
// implementation against the contract written in store's doc comments.
// Every implementation's tests call it with a function opening a fresh,
// empty store.
package storetest
