package main

import (
	"reflect"
	"testing"
)

// The field rules on OCR text as Tesseract gives it, slips included; no Tesseract needed.
func TestParse(t *testing.T) {
	cases := []struct {
		name, text string
		want       fields
	}{{
		name: "clean, title beside the supplier",
		text: "Redwood Cleaning Services plc INVOICE\n\n199 Cedar Lane\nVAT Reg No: GB 931 7390 73\n" +
			"Bill to: Invoice no: INV-2025-7899\nTallis Architects Invoice Date: October 14, 2025\n" +
			"138 Park Road Due date: December 13, 2025\nSubtotal 5,566.44 USD\nTax (10%) 556.64 USD\n" +
			"Total due 6,123.08 USD\n\f",
		want: fields{number: "INV-2025-7899", date: "2025-10-14", supplier: "Redwood Cleaning Services plc", subtotal: 5566.44, total: 6123.08},
	}, {
		name: "OCR slips",
		text: "‘Redwood Traders Inc.\nBill to: Invoice.No:. INV-2026~7680\nHarper Date: Nov 26,2026\n" +
			"Due: 30/12/2026\nSubtotat £5,922.60\nTax (20%) £1.184.52\nAmiount due £7 ,107.12\n",
		want: fields{number: "INV-2026-7680", date: "2026-11-26", supplier: "Redwood Traders Inc.", subtotal: 5922.6, total: 7107.12},
	}, {
		name: "numeric day-first date, due date first, net amount",
		text: "Kestrel Joinery Ltd\nDue date: 01/02/2026\nInvoice # 2026/0413\nDate of issue: 14/03/2026\n" +
			"Net.amount 1234.50\nVAT 0% 0.00\nTOTAL 1234.50\n",
		want: fields{number: "2026/0413", date: "2026-03-14", supplier: "Kestrel Joinery Ltd", subtotal: 1234.5, total: 1234.5},
	}, {
		name: "nothing found",
		text: "~~~\n\n",
		want: fields{date: noDate, missing: []string{"invoice_number", "date", "supplier", "subtotal", "total"}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := parse(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("parse = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestFindDate(t *testing.T) {
	for in, want := range map[string]string{
		"2026-03-14": "2026-03-14", "14/03/2026": "2026-03-14", "03/14/2026": "2026-03-14",
		"14.03.2026": "2026-03-14", "March 14, 2026": "2026-03-14", "14 March 2026": "2026-03-14",
		"14 Mar 2026": "2026-03-14", "Mar 14, 2026": "2026-03-14", "Sept 3 2025": "2025-09-03",
		"31/02/2026": "", "2026-13-01": "", "no date": "",
	} {
		if got, _ := findDate(in, true); got != want {
			t.Errorf("findDate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMendWords(t *testing.T) {
	for in, want := range map[string]string{
		"Subtotat £5.00":      "subtotal £5.00",
		"Amiount due":         "amount due",
		"Date: Novembcr 3":    "Date: november 3",
		"Riverbend Catering":  "Riverbend Catering", // two edits or more from every label
		"Due: Jne 3, 2026":    "Due: Jne 3, 2026",   // words under five letters are left alone
		"Total: $1,234.50":    "Total: $1,234.50",
		"Invoice Nunber: A-1": "Invoice number: A-1",
	} {
		if got := mendWords(in); got != want {
			t.Errorf("mendWords(%q) = %q, want %q", in, got, want)
		}
	}
}
