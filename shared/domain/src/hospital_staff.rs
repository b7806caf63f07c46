//! Hospital staff accounts: the receiving end of trips, tied to one hospital
//! (docs/decisions/0026-receiving-hospital.md). Made by admins only; they see the
//! trips whose destination is their hospital, record handovers and set diversions.

use serde::{Deserialize, Serialize};

use super::user::NewAccount;
use crate::{
    refusal::{NotAllowed, Refusal},
    types::Id,
};

/// A staff account as `POST /api/admin/hospital-staff` answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HospitalStaff {
    pub id: Id,
    pub username: String,
    pub email: String,
    pub phone_number: String,
    pub hospital_id: Id,
    pub hospital_name: String,
}

/// Who a hospital route's caller is: the account and its hospital, as stored now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HospitalStaffRef {
    pub id: Id,
    pub hospital_id: Id,
}

pub struct NewHospitalStaff {
    pub account: NewAccount,
    pub hospital_id: Id,
}

/// A token whose stored account is not hospital staff: 403 on the hospital routes.
pub fn not_staff() -> Refusal {
    NotAllowed::NotHospitalStaff.into()
}
